"""Rvalues -> instructions. One function per Rvalue kind (see `RVALUES`).

Each returns the leaf values of the result. A scalar result is computed into `hint`
(the destination local's register) when the caller gives one, so that `_6 = Add(..)`
is one `add` and no `mov`; the instruction that writes `hint` always comes last, after
every operand has been read, so `_1 = Add(_1, _2)` and its expansions stay correct.
"""
from __future__ import annotations

from ..mir import syntax as mir
from ..types import U32, BoolTy, FloatTy, IntTy, Ty
from . import legalize
from .instrs import (BOOL_BINARY, FLOAT_APPROX, FLOAT_BINARY, FLOAT_COMPARE, FLOAT_MATH,
                     FLOAT_UNARY, INT_BINARY, INT_COMPARE, INT_MATH, INT_UNARY,
                     SPECIAL_REGISTERS, fill, instr)
from .places import Val
from .spaces import GENERIC
from .types import (PtxEmitError, arith, bits_suffix, is_thin_pointer, leaf_types, mem_size,
                    pointee, reg_class)


def emit_rvalue(em, rv: mir.Rvalue, ty: Ty, hint: list[str] | None) -> list[Val]:
    handler = RVALUES.get(type(rv))
    if handler is None:
        raise PtxEmitError(f"unsupported rvalue {type(rv).__name__}")
    return handler(em, rv, ty, hint)


def _dst(em, ty: Ty, hint) -> str:
    return hint[0] if hint else em.tmp(ty)


def emit_use(em, rv: mir.Use, ty, hint):
    return em.operand(rv.operand, hint)


def emit_len(em, rv: mir.Len, ty, hint):
    return [em.length(rv.place)]


def emit_ref(em, rv: mir.Ref, ty, hint):
    return [em.address(rv.place)]


def emit_static_ref(em, rv: mir.StaticRef, ty, hint):
    space = em.static_space(rv.name)
    dst = _dst(em, leaf_types(ty)[0], hint)
    em.emit(instr("mov.u64", dst, em.static_symbol(rv.name)))
    return [Val(dst, leaf_types(ty)[0], space)]


def emit_aggregate(em, rv: mir.Aggregate, ty, hint):
    values = [v for op in rv.operands for v in em.operand(op)]
    want = len(leaf_types(ty))
    return (values + [None] * want)[:want]  # `None` may leave out the payload


def emit_repeat(em, rv: mir.Repeat, ty, hint):
    return em.operand(rv.operand) * rv.count


# ---------------------------------------------------------------------------
# Arithmetic

def emit_binary(em, rv: mir.BinaryOp, ty, hint):
    a, b = em.scalar(em.operand(rv.lhs)), em.scalar(em.operand(rv.rhs))
    dst = _dst(em, leaf_types(ty)[0], hint)
    if rv.op in mir.COMPARISONS:
        compare(em, rv.op, a, b, dst)
    elif isinstance(a.ty, BoolTy):
        if rv.op not in BOOL_BINARY:
            raise PtxEmitError(f"no `{rv.op}` on bool")
        em.emit(instr(BOOL_BINARY[rv.op], dst, legalize.pred(em, a), legalize.pred(em, b)))
    elif isinstance(a.ty, FloatTy):
        if rv.op == "rem":
            legalize.float_rem(em, a, b, dst)
        elif rv.op in FLOAT_BINARY:
            em.emit(instr(fill(FLOAT_BINARY[rv.op], f=arith(a.ty)), dst, a.text, b.text))
        else:
            raise PtxEmitError(f"no `{rv.op}` on floats")
    elif isinstance(a.ty, IntTy):
        int_binary(em, rv.op, a, b, dst)
    else:
        raise PtxEmitError(f"no `{rv.op}` on `{a.ty}`")
    return [Val(dst, leaf_types(ty)[0])]


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
    if isinstance(a.ty, FloatTy):
        em.emit(instr(f"setp.{FLOAT_COMPARE[op]}.{arith(a.ty)}", dst, a.text, b.text))
        return
    if is_thin_pointer(a.ty) and a.space != b.space:  # compare as generic addresses
        a, b = em.coerce(a, GENERIC), em.coerce(b, GENERIC)
    em.emit(instr(f"setp.{INT_COMPARE[op]}.{arith(a.ty)}", dst, a.text, b.text))


def emit_fma(em, shape, ty, hint) -> list[Val]:
    """A contracted `a*b + c` (see fusion.py)."""
    a = em.scalar(em.operand(shape.a))
    b = em.scalar(em.operand(shape.b))
    c = em.scalar(em.operand(shape.addend))
    f = arith(a.ty)
    if shape.negate_product:
        a = _negated(em, a, f)
    if shape.negate_addend:
        c = _negated(em, c, f)
    dst = _dst(em, a.ty, hint)
    em.emit(instr(f"fma.rn.{f}", dst, a.text, b.text, c.text))
    return [Val(dst, a.ty)]


def _negated(em, v: Val, f: str) -> Val:
    r = em.tmp(v.ty)
    em.emit(instr(f"neg.{f}", r, v.text))
    return Val(r, v.ty)


def emit_unary(em, rv: mir.UnaryOp, ty, hint):
    a = em.scalar(em.operand(rv.operand))
    dst = _dst(em, a.ty, hint)
    if isinstance(a.ty, BoolTy):
        if rv.op != "not":
            raise PtxEmitError("only `!` applies to bool")
        em.emit(instr("not.pred", dst, legalize.pred(em, a)))
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
    dst = _dst(em, to, hint)
    legalize.cast(em, v, to, dst)
    return [Val(dst, to, GENERIC if is_thin_pointer(to) else None)]


# ---------------------------------------------------------------------------
# Intrinsics

def emit_intrinsic(em, rv: mir.Intrinsic, ty, hint):
    args = [em.scalar(em.operand(op)) for op in rv.args] if rv.name != "select" else None
    leaf = leaf_types(ty)[0] if leaf_types(ty) else None
    if rv.name in SPECIAL_REGISTERS or rv.name == "warpid":
        return [_special(em, rv.name, leaf, hint)]
    if rv.name == "select":
        return _select(em, rv, ty, hint)
    if rv.name == "ptr_add":
        return [_ptr_add(em, args[0], args[1], hint)]
    dst = _dst(em, leaf, hint)
    x = args[0]
    if rv.name in ("popc", "clz", "ctz"):
        _count(em, rv.name, x, leaf, dst)
        return [Val(dst, leaf)]
    if isinstance(x.ty, FloatTy):
        _float_math(em, rv.name, args, dst)
    elif isinstance(x.ty, IntTy) and rv.name in INT_MATH:
        if rv.name == "abs" and not x.ty.signed:
            em.emit(instr(f"mov.{bits_suffix(x.ty)}", dst, x.text))
        else:
            em.emit(instr(fill(INT_MATH[rv.name], s=arith(x.ty)), dst, *(a.text for a in args)))
            if rv.name == "abs":
                legalize.rewrap(em, dst, x.ty)
    else:
        raise PtxEmitError(f"unsupported intrinsic `{rv.name}` on `{x.ty}`")
    return [Val(dst, leaf)]


def _float_math(em, name: str, args: list[Val], dst: str) -> None:
    x = args[0]
    f = arith(x.ty)
    if name == "round":
        legalize.round_half_away(em, x, dst)
    elif name in FLOAT_MATH:
        operands = [a.text for a in args]
        if name == "copysign":  # Rust: x.copysign(sign); PTX: copysign d, sign, x
            operands.reverse()
        em.emit(instr(fill(FLOAT_MATH[name], f=f), dst, *operands))
    elif name in FLOAT_APPROX and f == "f32":
        em.emit(instr(FLOAT_APPROX[name], dst, x.text))
    elif name in ("exp", "ln") and f == "f32":
        _exp_ln(em, name, x, dst)
    else:
        raise PtxEmitError(f"unsupported intrinsic `{name}` on `{x.ty}`")


def _exp_ln(em, name: str, x: Val, dst: str) -> None:
    """exp(x) = 2^(x*log2 e), ln(x) = log2(x)*ln 2 (approximate, f32)."""
    t = em.tmp(x.ty)
    if name == "exp":
        em.emit(instr("mul.rn.f32", t, x.text, "0f3FB8AA3B"))
        em.emit(instr("ex2.approx.f32", dst, t))
    else:
        em.emit(instr("lg2.approx.f32", t, x.text))
        em.emit(instr("mul.rn.f32", dst, t, "0f3F317218"))


def _special(em, name: str, leaf: Ty, hint) -> Val:
    """Special registers are u32; a wider destination gets a zero extension."""
    wide = leaf is not None and leaf != U32
    dst = em.tmp(U32) if wide else _dst(em, U32, hint)
    if name == "warpid":  # the warp of this thread in its block (not %warpid, which
        _linear_warp(em, dst)  # names a hardware slot and may change while running)
    else:
        em.emit(instr("mov.u32", dst, SPECIAL_REGISTERS[name]))
    if not wide:
        return Val(dst, U32)
    out = _dst(em, leaf, hint)
    legalize.cast(em, Val(dst, U32), leaf, out)
    return Val(out, leaf)


def _linear_warp(em, dst: str) -> None:
    tid = {axis: em.tmp(U32) for axis in ("x", "y", "z", "nx", "ny")}
    for axis in "xyz":
        em.emit(instr("mov.u32", tid[axis], f"%tid.{axis}"))
    em.emit(instr("mov.u32", tid["nx"], "%ntid.x"))
    em.emit(instr("mov.u32", tid["ny"], "%ntid.y"))
    em.emit(instr("mad.lo.u32", tid["z"], tid["z"], tid["ny"], tid["y"]))
    em.emit(instr("mad.lo.u32", tid["z"], tid["z"], tid["nx"], tid["x"]))
    em.emit(instr("shr.u32", dst, tid["z"], "5"))


def _count(em, name: str, x: Val, leaf: Ty, dst: str) -> None:
    """Bit counts are u32; a 64-bit destination gets the count zero-extended."""
    if reg_class(leaf).name != "b64":
        legalize.count_bits(em, name, x, dst)
        return
    count = em.tmp(U32)
    legalize.count_bits(em, name, x, count)
    em.emit(instr("cvt.u64.u32", dst, count))


def _select(em, rv: mir.Intrinsic, ty, hint):
    cond = em.scalar(em.operand(rv.args[0]))
    a, b = em.operand(rv.args[1]), em.operand(rv.args[2])
    leaves = leaf_types(ty)
    single = len(leaves) == 1
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if is_thin_pointer(x.ty) and x.space != y.space:
            x, y = em.coerce(x, GENERIC), em.coerce(y, GENERIC)
        dst = hint[0] if single and hint else em.tmp(leaves[i])
        legalize.select(em, cond, x, y, dst)
        out.append(Val(dst, leaves[i], x.space))
    return out


def _ptr_add(em, p: Val, n: Val, hint) -> Val:
    """p + n * size_of(*p)."""
    size = mem_size(pointee(p.ty))
    dst = _dst(em, p.ty, hint)
    p = em.as_reg(p)
    if n.imm:
        em.emit(instr("add.s64", dst, p.text, str(int(n.text, 0) * size)))
    elif isinstance(n.ty, IntTy) and n.ty.bits <= 32:
        sign = "s" if n.ty.signed else "u"
        em.emit(instr(f"mad.wide.{sign}32", dst, n.text, str(size), p.text))
    else:
        em.emit(instr("mad.lo.s64", dst, n.text, str(size), p.text))
    return Val(dst, p.ty, p.space)


RVALUES = {
    mir.Use: emit_use,
    mir.BinaryOp: emit_binary,
    mir.UnaryOp: emit_unary,
    mir.Cast: emit_cast,
    mir.Ref: emit_ref,
    mir.Len: emit_len,
    mir.Aggregate: emit_aggregate,
    mir.Repeat: emit_repeat,
    mir.Intrinsic: emit_intrinsic,
    mir.StaticRef: emit_static_ref,
}
