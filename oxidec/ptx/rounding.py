"""`cuda_device::float`'s explicit-rounding and approximate instructions (rows:
device_api/rounding.py): `float.add.rz.ftz` on f32 operands -> `add.rz.ftz.f32 d, a, b`."""
from __future__ import annotations

from ..device_api.rounding import OPCODES
from .instrs import instr
from .places import Val
from .types import arith


def rounded(em, rv, ty, hint) -> list[Val]:
    args = [em.as_reg(em.scalar(em.operand(op))) for op in rv.args]
    t = args[0].ty
    dst = hint[0] if hint else em.tmp(t)
    opcode = rv.name.removeprefix("float.")
    em.emit(instr(f"{opcode}.{arith(t)}", dst, *(a.text for a in args)))
    return [Val(dst, t)]


INTRINSICS = {f"float.{opcode}": rounded for opcode in OPCODES}
