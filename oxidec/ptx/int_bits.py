"""The integer bit intrinsics of lower/num_methods.py: `brev` (reverse_bits), `bswap`
(swap_bytes), `mul_hi` (the high half of a product, for 64-bit overflow checks).

Narrow integers live in 32-bit registers, zero- or sign-extended (legalize.rewrap): their
reversal works on the 32-bit register and shifts the narrow part back down.
"""
from __future__ import annotations

from ..types import U32, IntTy
from . import legalize
from .instrs import instr
from .places import Val
from .types import PtxEmitError, arith, is_narrow


def _operands(em, rv, ty, hint, count: int):
    args = [em.as_reg(em.scalar(em.operand(op))) for op in rv.args]
    if len(args) != count or not isinstance(args[0].ty, IntTy):
        raise PtxEmitError(f"`{rv.name}` takes {count} integer operand(s)")
    dst = hint[0] if hint else em.tmp(args[0].ty)
    return args, dst


def bit_reverse(em, rv, ty, hint) -> list[Val]:
    (x,), dst = _operands(em, rv, ty, hint, 1)
    t = x.ty
    if t.bits == 64:
        em.emit(instr("brev.b64", dst, x.text))
    elif not is_narrow(t):
        em.emit(instr("brev.b32", dst, x.text))
    else:  # the narrow bits end up at the top of the register: shift them back down
        r = em.tmp(U32)
        em.emit(instr("brev.b32", r, x.text))
        em.emit(instr("shr.u32", dst, r, str(32 - t.bits)))
        legalize.rewrap(em, dst, t)
    return [Val(dst, t)]


# prmt selectors: byte i of the result is byte (selector >> 4i) & 7 of {b, a}; b is 0 here
_SWAP32 = "0x0123"
_SWAP16 = "0x4401"  # bytes 1, 0, then zeros


def byte_swap(em, rv, ty, hint) -> list[Val]:
    (x,), dst = _operands(em, rv, ty, hint, 1)
    t = x.ty
    if t.bits == 8:
        em.emit(instr("mov.b32", dst, x.text))
    elif t.bits == 64:
        lo, hi = em.tmp(U32), em.tmp(U32)
        em.emit(instr("mov.b64", f"{{{lo}, {hi}}}", x.text))
        em.emit(instr("prmt.b32", lo, lo, "0", _SWAP32))
        em.emit(instr("prmt.b32", hi, hi, "0", _SWAP32))
        em.emit(instr("mov.b64", dst, f"{{{hi}, {lo}}}"))
    else:
        em.emit(instr("prmt.b32", dst, x.text, "0", _SWAP16 if t.bits == 16 else _SWAP32))
        legalize.rewrap(em, dst, t)
    return [Val(dst, t)]


def mul_hi(em, rv, ty, hint) -> list[Val]:
    (a, b), dst = _operands(em, rv, ty, hint, 2)
    if is_narrow(a.ty):
        raise PtxEmitError("`mul_hi` takes 32- or 64-bit integers")
    em.emit(instr(f"mul.hi.{arith(a.ty)}", dst, a.text, b.text))
    return [Val(dst, a.ty)]


INT_BITS = {"brev": bit_reverse, "bswap": byte_swap, "mul_hi": mul_hi}
