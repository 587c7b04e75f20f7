"""`core::cmp::Ordering` and the comparison methods (typeck/ordering.py), built from `<`/`==`
and selects, so no branch is added:

    a.cmp(&b)          select(a < b, Less, select(a == b, Equal, Greater))
    x.partial_cmp(&y)  select(x < y | x == y | x > y, Some(x.cmp(y)), None)   (floats: NaN)
    x.total_cmp(&y)    the same `cmp` on the bits, negatives' magnitude bits flipped
    o.is_le()          discriminant(o) <= 0          (Less = -1, Equal = 0, Greater = 1)
    o.reverse()        select(d < 0, Greater, select(d == 0, Equal, Less))
    o.then(p)          select(d == 0, p, o)
    o.then_with(f)     if d == 0 { f() } else { o }        (f runs only then)
    a.max(b)           if a.cmp(&b) == Greater { a } else { b }    (core's max_by; min too)
    a.clamp(lo, hi)    assert!(lo <= hi); if a < lo { lo } else if a > hi { hi } else { a }
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M
from .user_calls import byval_ref

ORD = T.CMP_ORDERING
_PREDICATE_OPS = {"is_lt": "lt", "is_le": "le", "is_gt": "gt", "is_ge": "ge", "is_eq": "eq",
                  "is_ne": "ne"}


def variant(lw, index: int, span) -> M.Operand:
    return lw.to_temp(M.Aggregate(ORD, (), index), ORD, span)


def select(lw, cond, a, b, ty, span) -> M.Operand:
    return lw.to_temp(M.Intrinsic("select", (cond, a, b)), ty, span)


def from_order(lw, lt, eq, span) -> M.Operand:
    """The Ordering of two values, given whether the first is below and equal to the other."""
    rest = select(lw, eq, variant(lw, 1, span), variant(lw, 2, span), ORD, span)
    return select(lw, lt, variant(lw, 0, span), rest, ORD, span)


def lower_ordering_method(lw, e, name: str) -> M.Operand:
    span = e.span
    if name in ("max", "min", "clamp"):
        return lower_ord_choice(lw, e, name)
    if name in _PREDICATE_OPS or name in ("reverse", "then", "then_with"):
        o = lw.read(lw.receiver_place(e.receiver), ORD)
        d = lw.to_temp(M.Discriminant(M.Place(lw.operand_local(o, ORD, span))), ORD.tag, span)
        zero = M.Constant(0, ORD.tag)
        if name in _PREDICATE_OPS:
            return lw.to_temp(M.BinaryOp(_PREDICATE_OPS[name], d, zero), T.BOOL, span)
        is_eq = lw.to_temp(M.BinaryOp("eq", d, zero), T.BOOL, span)
        if name == "then":
            return select(lw, is_eq, lw.lower_expr(e.args[0]), o, ORD, span)
        if name == "then_with":  # a branch: the closure runs only on `Equal`, as in Rust
            out = lw.temp(ORD, span)
            call, keep, join = lw.new_block(), lw.new_block(), lw.new_block()
            lw.switch_bool(is_eq, call, keep, span)
            lw.cur = call
            value = lw.inline_closure(e.args[0], [])
            if lw.cur is not None:
                lw.assign(M.Place(out), M.Use(value), span)
            lw.goto(join, span)
            lw.cur = keep
            lw.assign(M.Place(out), M.Use(o), span)
            lw.goto(join, span)
            lw.cur = join
            return M.Copy(M.Place(out))
        return from_order(lw, lw.to_temp(M.BinaryOp("gt", d, zero), T.BOOL, span), is_eq, span)
    ty = lw.ty(e.receiver)
    while isinstance(ty, T.RefTy):
        ty = ty.inner
    a = lw.read(lw.receiver_place(e.receiver), ty)
    arg_ty = lw.ty(e.args[0])
    other = M.Place(lw.operand_local(lw.lower_expr(e.args[0]), arg_ty, e.args[0].span),
                    (M.Deref(),))
    while isinstance(arg_ty.inner, T.RefTy):  # `&&f32`: through every reference
        arg_ty = arg_ty.inner
        other = M.Place(lw.operand_local(lw.read(other, arg_ty), arg_ty, span), (M.Deref(),))
    b = lw.read(other, ty)
    if name == "total_cmp":
        a, b = total_order_key(lw, a, ty, span), total_order_key(lw, b, ty, span)
        ty = T.IntTy(ty.bits, True)
    lt = compare(lw, "lt", a, b, ty, span)
    eq = compare(lw, "eq", a, b, ty, span)
    order = from_order(lw, lt, eq, span)
    if name != "partial_cmp":
        return order
    opt = T.option_ty(ORD)
    gt = compare(lw, "gt", a, b, ty, span)
    some = lw.to_temp(M.BinaryOp("bitor", lw.to_temp(M.BinaryOp("bitor", lt, eq), T.BOOL, span),
                                 gt), T.BOOL, span)
    return select(lw, some, lw.to_temp(M.Aggregate(opt, (order,), 1), opt, span),
                  lw.to_temp(M.Aggregate(opt, (), 0), opt, span), opt, span)


def compare(lw, op: str, a, b, ty: T.Ty, span) -> M.Operand:
    if isinstance(ty, (T.StructTy, T.EnumTy)):  # a derived PartialOrd: field by field
        return lw.derived_compare(op, a, b, ty, span)
    return lw.to_temp(M.BinaryOp(op, a, b), T.BOOL, span)


def total_order_key(lw, x, ty: T.FloatTy, span) -> M.Operand:
    """core's `total_cmp` key: the bits as a signed integer, with the magnitude bits of a
    negative value flipped, so integer order is IEEE 754 totalOrder (-NaN < -inf < ... < -0
    < +0 < ... < inf < NaN)."""
    s, u = T.IntTy(ty.bits, True), T.IntTy(ty.bits, False)
    bits = lw.to_temp(M.Intrinsic("bitcast", (x,)), s, span)
    sign = lw.to_temp(M.BinaryOp("shr", bits, M.Constant(ty.bits - 1, T.U32)), s, span)
    mask = lw.to_temp(M.BinaryOp("shr", lw.to_temp(M.Cast(sign, u), u, span),
                                 M.Constant(1, T.U32)), u, span)
    return lw.to_temp(M.BinaryOp("bitxor", bits, lw.to_temp(M.Cast(mask, s), s, span)), s, span)


_BINOPS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def partial_order_test(lw, op: str, result: M.Operand, span) -> M.Operand:
    """`a < b` from `a.partial_cmp(&b)`: Some, and its Ordering's discriminant `<` 0 (core's
    default `PartialOrd::lt` and friends)."""
    opt = T.option_ty(ORD)
    local = lw.operand_local(result, opt, span)
    some = lw.to_temp(M.Discriminant(M.Place(local)), opt.tag, span)
    d = lw.to_temp(M.Discriminant(M.Place(local, (M.Field(0, 1),))), ORD.tag, span)
    holds = lw.to_temp(M.BinaryOp(_BINOPS[op], d, M.Constant(0, ORD.tag)), T.BOOL, span)
    return lw.to_temp(M.BinaryOp("bitand", some, holds), T.BOOL, span)


def lower_ord_choice(lw, e, name: str) -> M.Operand:
    """`a.max(b)`, `a.min(b)`, `a.clamp(lo, hi)` of an `Ord` struct or enum: core's default
    methods, on `cmp` (the user's, or the derived field-by-field order)."""
    span, ty = e.span, lw.ty(e)
    a = lw.operand_local(lw.read(lw.receiver_place(e.receiver), ty), ty, span)
    rest = [lw.operand_local(v, ty, span) for v in lw.lower_in_order(list(e.args))]
    user = lw.r.overloads.get(e)

    def greater(x: int, y: int) -> M.Operand:
        """Whether x.cmp(&y) is Greater."""
        vx, vy = M.Copy(M.Place(x)), M.Copy(M.Place(y))
        if user is None:
            return compare(lw, "gt", vx, vy, ty, span)
        sig = user[1]
        ops = []
        for local, p in zip((x, y), sig.params):
            if byval_ref(p):  # a `&Struct` parameter takes the value (user_calls.py)
                ops.append(M.Copy(M.Place(local)))
            else:
                ops.append(lw.to_temp(M.Ref(M.Place(local), False), p, span))
        dest = lw.temp(ORD, span)
        nxt = lw.new_block()
        lw.terminate(M.Call(sig.name, tuple(ops), M.Place(dest), nxt, span))
        lw.cur = nxt
        d = lw.to_temp(M.Discriminant(M.Place(dest)), ORD.tag, span)
        return lw.to_temp(M.BinaryOp("gt", d, M.Constant(0, ORD.tag)), T.BOOL, span)

    out = lw.temp(ty, span)
    join = lw.new_block()

    def pick(cond: M.Operand, yes: int, no_block=None) -> None:
        """out = yes if cond, else continue in a new block (the cursor moves there)."""
        take, other = lw.new_block(), lw.new_block()
        lw.switch_bool(cond, take, other, span)
        lw.cur = take
        lw.assign(M.Place(out), M.Use(M.Copy(M.Place(yes))), span)
        lw.goto(join, span)
        lw.cur = other

    if name == "max":
        pick(greater(a, rest[0]), a)
        lw.assign(M.Place(out), M.Use(M.Copy(M.Place(rest[0]))), span)
    elif name == "min":
        pick(greater(a, rest[0]), rest[0])
        lw.assign(M.Place(out), M.Use(M.Copy(M.Place(a))), span)
    else:
        lo, hi = rest
        ok = lw.to_temp(M.UnaryOp("not", greater(lo, hi)), T.BOOL, span)
        lw.check(ok, "assertion failed: min <= max", span)
        pick(greater(lo, a), lo)
        pick(greater(a, hi), hi)
        lw.assign(M.Place(out), M.Use(M.Copy(M.Place(a))), span)
    lw.goto(join, span)
    lw.cur = join
    return M.Copy(M.Place(out))
