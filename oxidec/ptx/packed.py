"""Packed half-float pairs (device_api/packed.py): one instruction on `.b32` registers per
operation; unpacking a half is a `cvt.f32.f16` of its 16 bits (f16) or a shift (bf16)."""
from __future__ import annotations

from ..device_api.packed import ARITH, PACK, SCALAR, UNPACK, XORSIGN
from ..types import F16, F32, U16, U32
from .instrs import instr
from .places import Val


def _regs(em, rv) -> list[str]:
    return [em.as_reg(em.scalar(em.operand(a))).text for a in rv.args]


def arith(em, rv, ty, hint) -> list[Val]:
    dst = hint[0] if hint else em.tmp(U32)
    em.emit(instr(rv.name, dst, *_regs(em, rv)))
    return [Val(dst, U32)]


def pack(em, rv, ty, hint) -> list[Val]:
    """(lo, hi) -> d: PTX puts its first source in the upper half."""
    lo, hi = _regs(em, rv)
    dst = hint[0] if hint else em.tmp(U32)
    em.emit(instr(rv.name, dst, hi, lo))
    return [Val(dst, U32)]


def unpack(em, rv, ty, hint) -> list[Val]:
    (x,) = _regs(em, rv)
    dst = hint[0] if hint else em.tmp(F32)
    half = rv.name.rpartition(".")[2]
    if UNPACK[rv.name] == "bf16":
        t = em.tmp(U32)
        if half == "lo":
            em.emit(instr("shl.b32", t, x, "16"))
        else:
            em.emit(instr("and.b32", t, x, "-65536"))
        em.emit(instr("mov.b32", dst, t))
        return [Val(dst, F32)]
    em.emit("{")
    em.emit(".reg .b16 \t%h<2>;")
    em.emit(instr("mov.b32", "{%h0, %h1}", x))
    em.emit(instr("cvt.f32.f16", dst, "%h0" if half == "lo" else "%h1"))
    em.emit("}")
    return [Val(dst, F32)]


def scalar(em, rv, ty, hint) -> list[Val]:
    """`f16::max_f16(a, b)` and friends: the u16 bits (32-bit registers) into .b16 ones, the
    half instruction, and back."""
    a, b = _regs(em, rv)
    ha, hb, hr = em.tmp(F16), em.tmp(F16), em.tmp(F16)
    em.emit(instr("cvt.u16.u32", ha, a))
    em.emit(instr("cvt.u16.u32", hb, b))
    em.emit(instr(rv.name, hr, ha, hb))
    dst = hint[0] if hint else em.tmp(U16)
    em.emit(instr("cvt.u32.u16", dst, hr))
    return [Val(dst, U16)]


PACKED = {
    **{name: scalar for name in SCALAR.values()},
    **{name: (arith if name.endswith("x2") else scalar) for name in XORSIGN.values()},
    **{name: arith for name, _, _ in ARITH.values()},
    **{name: pack for name in PACK.values()},
    **{name: unpack for name in UNPACK},
}
