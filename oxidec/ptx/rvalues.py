"""Rvalues -> instructions. One function per Rvalue kind (see `RVALUES`).

Each returns the leaf values of the result. A scalar result is computed into `hint`
(the destination local's register) when the caller gives one, so that `_6 = Add(..)`
is one `add` and no `mov`; the instruction that writes `hint` always comes last, after
every operand has been read, so `_1 = Add(_1, _2)` and its expansions stay correct.
"""
from __future__ import annotations

from ..mir import layout
from ..mir import syntax as mir
from ..types import BoolTy, FloatTy, IntTy, Ty, is_half
from . import halves, intrinsics, legalize
from .instrs import (BOOL_BINARY, FLOAT_BINARY, FLOAT_COMPARE, FLOAT_UNARY, INT_BINARY,
                     INT_COMPARE, INT_UNARY, SIGN_BIT, fill, instr)
from .places import Val
from .spaces import GENERIC, representation
from .types import (PtxEmitError, aggregate_fields, arith, bits_suffix, is_fat_pointer,
                    is_thin_pointer, leaf_types)


def emit_rvalue(em, rv: mir.Rvalue, ty: Ty, hint: list[str] | None) -> list[Val]:
    handler = RVALUES.get(type(rv))
    if handler is None:
        raise PtxEmitError(f"unsupported rvalue {type(rv).__name__}")
    return handler(em, rv, ty, hint)


def dst_of(em, ty: Ty, hint) -> str:
    return hint[0] if hint else em.tmp(ty)


def emit_use(em, rv: mir.Use, ty, hint):
    return em.operand(rv.operand, hint)


def emit_ref(em, rv: mir.Ref, ty, hint):
    return em.address(rv.place, fat=is_fat_pointer(ty))


def emit_static_ref(em, rv: mir.StaticRef, ty, hint):
    space = em.static_space(rv.name)
    dst = dst_of(em, leaf_types(ty)[0], hint)
    em.emit(instr("mov.u64", dst, em.static_symbol(rv.name)))
    return [Val(dst, leaf_types(ty)[0], space)]


def emit_len(em, rv: mir.Len, ty, hint):
    return [em.length(rv.place)]


def emit_discriminant(em, rv: mir.Discriminant, ty, hint):
    return [em.discriminant(rv.place)]


def emit_aggregate(em, rv: mir.Aggregate, ty, hint):
    # a field left undefined (another variant's) is `None`: its registers are not written
    values = [v for op, f in zip(layout.flat_operands(rv), aggregate_fields(ty))
              for v in (em.operand(op) if op is not None else [None] * len(leaf_types(f)))]
    want = len(leaf_types(ty))
    return (values + [None] * want)[:want]  # `None` may leave out the payload


def emit_repeat(em, rv: mir.Repeat, ty, hint):
    return em.operand(rv.operand) * rv.count


# ---------------------------------------------------------------------------
# Arithmetic

ONE = ("0f3F800000", "0d3FF0000000000000")  # 1.0 as f32 and f64 immediates


def emit_binary(em, rv: mir.BinaryOp, ty, hint):
    if rv.op == "mul":
        wide = _wide_multiply(em, rv, ty, hint)
        if wide is not None:
            return wide
    a, b = em.scalar(em.operand(rv.lhs)), em.scalar(em.operand(rv.rhs))
    dst = dst_of(em, leaf_types(ty)[0], hint)
    if rv.op in mir.COMPARISONS:
        compare(em, rv.op, a, b, dst)
    elif isinstance(a.ty, BoolTy):
        if rv.op not in BOOL_BINARY:
            raise PtxEmitError(f"no `{rv.op}` on bool")
        em.emit(instr(BOOL_BINARY[rv.op], dst, legalize.pred(em, a), legalize.pred(em, b)))
    elif is_half(a.ty):
        halves.binary(em, rv.op, a, b, dst)
    elif isinstance(a.ty, FloatTy):
        if rv.op == "rem":
            legalize.float_rem(em, a, b, dst)
        elif rv.op == "div" and a.imm and a.text in ONE and not b.imm:
            # 1/x: rcp.rn is the same correctly rounded result, with a shorter SASS path
            # (no FCHK, 7 instructions before the slow-path branch instead of 8)
            em.emit(instr(f"rcp.rn.{arith(a.ty)}", dst, b.text))
        elif rv.op in FLOAT_BINARY:
            em.emit(instr(fill(FLOAT_BINARY[rv.op], f=arith(a.ty)), dst, a.text, b.text))
        else:
            raise PtxEmitError(f"no `{rv.op}` on floats")
    elif isinstance(a.ty, IntTy):
        int_binary(em, rv.op, a, b, dst)
    else:
        raise PtxEmitError(f"no `{rv.op}` on `{a.ty}`")
    return [Val(dst, leaf_types(ty)[0])]


def _wide_multiply(em, rv: mir.BinaryOp, ty, hint):
    """`(a as u64) * (b as u64)` of 32-bit a, b (see fusion.py's widened locals) is one
    `mul.wide.u32`, which ptxas makes a single IMAD.WIDE."""
    leaf = leaf_types(ty)[0] if len(leaf_types(ty)) == 1 else None
    if not (isinstance(leaf, IntTy) and leaf.bits == 64):
        return None
    sources = [_narrow_source(em, op) for op in (rv.lhs, rv.rhs)]
    if None in sources:
        return None
    signs = {s.ty.signed for s in sources if not s.imm}
    if len(signs) != 1:
        return None
    signed = signs.pop()
    if any(s.imm and not _fits_32(int(s.text, 0), signed) for s in sources):
        return None
    narrow = IntTy(32, signed)  # a constant factor is a 32-bit immediate here
    a, b = (em.as_reg(Val(s.text, narrow, imm=True)) if s.imm else s for s in sources)
    dst = dst_of(em, leaf, hint)
    em.emit(instr(f"mul.wide.{'s' if signed else 'u'}32", dst, a.text, b.text))
    return [Val(dst, leaf)]


def _narrow_source(em, op: mir.Operand) -> Val | None:
    """The 32-bit value a 64-bit operand was widened from, if fusion.py knows one."""
    if isinstance(op, mir.Constant):
        return Val(str(op.value), op.ty, imm=True) if isinstance(op.value, int) else None
    if op.place.projection or op.place.local not in em.plan.widened:
        return None
    return em.scalar(em.operand(em.plan.widened[op.place.local]))


def _fits_32(value: int, signed: bool) -> bool:
    return -(1 << 31) <= value < (1 << 31) if signed else 0 <= value < (1 << 32)


def int_binary(em, op: str, a: Val, b: Val, dst: str) -> None:
    template = fill(INT_BINARY[op], s=arith(a.ty), b=bits_suffix(a.ty))
    if op in ("shl", "shr"):
        amount = legalize.shift_amount(em, b, a.ty.bits)
        em.emit(instr(template, dst, a.text, amount))
    else:
        em.emit(instr(template, dst, a.text, b.text))
    if op in legalize.WRAPS:
        legalize.rewrap(em, dst, a.ty)


def compare(em, op: str, a: Val, b: Val, dst: str) -> None:
    if isinstance(a.ty, BoolTy):
        legalize.bool_compare(em, op, a, b, dst)
        return
    if is_half(a.ty):
        halves.compare(em, op, a, b, dst)
        return
    if isinstance(a.ty, FloatTy):
        em.emit(instr(f"setp.{FLOAT_COMPARE[op]}.{arith(a.ty)}", dst, a.text, b.text))
        return
    if is_thin_pointer(a.ty) and representation(a.space) != representation(b.space):
        a, b = em.coerce(a, GENERIC), em.coerce(b, GENERIC)
    em.emit(instr(f"setp.{INT_COMPARE[op]}.{arith(a.ty)}", dst, a.text, b.text))


def emit_unary(em, rv: mir.UnaryOp, ty, hint):
    a = em.scalar(em.operand(rv.operand))
    dst = dst_of(em, a.ty, hint)
    if isinstance(a.ty, BoolTy):
        if rv.op != "not":
            raise PtxEmitError("only `!` applies to bool")
        em.emit(instr("not.pred", dst, legalize.pred(em, a)))
    elif isinstance(a.ty, FloatTy) and a.ty.bits in SIGN_BIT:
        # Rust's `-x` flips the sign bit, NaN or not; `neg.f32` returns the canonical NaN
        em.emit(instr(f"xor.b{a.ty.bits}", dst, em.as_reg(a).text, SIGN_BIT[a.ty.bits]))
    elif isinstance(a.ty, FloatTy):
        em.emit(instr(fill(FLOAT_UNARY[rv.op], f=arith(a.ty)), dst, a.text))
    else:
        em.emit(instr(fill(INT_UNARY[rv.op], s=arith(a.ty), b=bits_suffix(a.ty)), dst, a.text))
        if rv.op == "neg" or not a.ty.signed:  # `not` keeps a sign-extended value extended
            legalize.rewrap(em, dst, a.ty)
    return [Val(dst, a.ty)]


def emit_cast(em, rv: mir.Cast, ty, hint):
    values = em.operand(rv.operand)
    target = leaf_types(rv.ty)
    if len(values) == 2 and len(target) == 1 and is_thin_pointer(target[0]):
        values = values[:1]  # a slice's data pointer
    if len(values) != 1 or len(target) != 1:
        raise PtxEmitError(f"cannot cast to `{rv.ty}`")
    v, to = values[0], target[0]
    if is_thin_pointer(v.ty) and is_thin_pointer(to):
        return [Val(v.text, to, v.space, v.imm)]  # the address is unchanged
    if v.ty == to:
        return [v]
    dst = dst_of(em, to, hint)
    legalize.cast(em, v, to, dst)
    return [Val(dst, to, GENERIC if is_thin_pointer(to) else None)]


RVALUES = {
    mir.Use: emit_use,
    mir.BinaryOp: emit_binary,
    mir.UnaryOp: emit_unary,
    mir.Cast: emit_cast,
    mir.Ref: emit_ref,
    mir.Len: emit_len,
    mir.Discriminant: emit_discriminant,
    mir.Aggregate: emit_aggregate,
    mir.Repeat: emit_repeat,
    mir.Intrinsic: intrinsics.emit_intrinsic,
    mir.StaticRef: emit_static_ref,
}
