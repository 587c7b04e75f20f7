"""fp8 pair conversions (device_api/fp8.py): the fp8 pair is a `.b16` register, moved from
and to the u16 (a 32-bit register) with `cvt`; PTX puts its first f32 source in the upper
byte, so (lo, hi) is written `hi, lo`."""
from __future__ import annotations

from ..device_api.fp8 import CONVERSIONS
from ..types import F16, U16, U32
from .instrs import instr
from .places import Val


def convert(em, rv, ty, hint) -> list[Val]:
    version = "8.1" if rv.name == "cvt.rna.satfinite.tf32.f32" else "7.8"  # (PTX ISA)
    em.module.min_version = max(em.module.min_version, version, key=float)
    regs = [em.as_reg(em.scalar(em.operand(a))).text for a in rv.args]
    if rv.name.endswith(".tf32.f32"):  # f32 -> tf32 in a .b32
        dst = hint[0] if hint else em.tmp(U32)
        em.emit(instr(rv.name, dst, regs[0]))
        return [Val(dst, U32)]
    if rv.name.startswith("cvt.rn.f16x2") or rv.name.startswith("cvt.rn.relu.f16x2"):
        pair = em.tmp(F16)
        em.emit(instr("cvt.u16.u32", pair, regs[0]))
        dst = hint[0] if hint else em.tmp(U32)
        em.emit(instr(rv.name, dst, pair))
        return [Val(dst, U32)]
    pair = em.tmp(F16)
    em.emit(instr(rv.name, pair, *reversed(regs)))  # f32: (hi, lo); f16x2: the one source
    dst = hint[0] if hint else em.tmp(U16)
    em.emit(instr("cvt.u32.u16", dst, pair))
    return [Val(dst, U16)]


INTRINSICS = {name: convert for name, _ in CONVERSIONS.values()}
