"""Unsigned division and remainder by a power of two as shifts and masks: `pow2_div(body)`.

ptxas does not turn `div.u32 %r, %r, 2` into a shift (measured on sm_90: the reduction's
`half /= 2` became IMAD.HI and a fix-up, the 64-bit `div.u64` a CALL to a division
routine), so the pass does it on MIR, where the simulator sees it too:

    _5 = Div(copy _4, const 8_usize);        _5 = Shr(copy _4, const 3_usize);
    _6 = Rem(copy _4, const 8_usize);   ->   _6 = BitAnd(copy _4, const 7_usize);

For an unsigned x and k < bits, x / 2^k == x >> k and x % 2^k == x & (2^k - 1) exactly, for
every x. Signed types are left alone (division truncates toward zero, a shift rounds
down). Division by 1 is left to const_fold's algebra (or stays a shift by 0).
"""
from __future__ import annotations

from ..mir.syntax import Assign, BinaryOp, Body, Constant
from ..mir.typeof import MirTypeError, operand_ty
from ..types import IntTy


def pow2_div(body: Body) -> bool:
    changed = False
    for block in body.blocks:
        for stmt in block.statements:
            if not isinstance(stmt, Assign):
                continue
            rv = stmt.rvalue
            if not (isinstance(rv, BinaryOp) and rv.op in ("div", "rem")
                    and isinstance(rv.rhs, Constant)):
                continue
            ty = rv.rhs.ty
            if not (isinstance(ty, IntTy) and not ty.signed) or not _is_pow2(rv.rhs.value):
                continue
            try:
                if operand_ty(body, rv.lhs) != ty:
                    continue
            except MirTypeError:
                continue
            k = rv.rhs.value.bit_length() - 1
            if rv.op == "div":
                stmt.rvalue = BinaryOp("shr", rv.lhs, Constant(k, ty))
            else:
                stmt.rvalue = BinaryOp("bitand", rv.lhs, Constant(rv.rhs.value - 1, ty))
            changed = True
    return changed


def _is_pow2(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0 \
        and value & (value - 1) == 0
