"""`core::cmp`: the `Ordering` enum's methods and the comparison methods of the types core
or a derive orders (lower/ordering.py builds them from `<` and `==`).

    o.is_lt()  o.is_le()  o.is_gt()  o.is_ge()  o.is_eq()  o.is_ne()  -> bool
    o.reverse()  o.then(p)  o.then_with(|| p)                       -> Ordering
    a.cmp(&b)           integers, char, bool, `#[derive(Ord)]` types -> Ordering
    a.max(b)  a.min(b)  a.clamp(lo, hi)   `Ord` types (derived or a user `cmp`) -> Self
    a.partial_cmp(&b)   those and floats (None when a NaN is involved) -> Option<Ordering>
    x.total_cmp(&y)     f32, f64: IEEE 754 totalOrder                  -> Ordering

A type with a hand-written `Ord`/`PartialOrd` impl gets its own method (user_method finds
it before this module is asked).
"""
from __future__ import annotations

from .. import ast
from .. import types as T

ORDERING_PREDICATES = ("is_lt", "is_le", "is_gt", "is_ge", "is_eq", "is_ne")


def ordering_method(ck, e: ast.MethodCallExpr, base: T.Ty) -> T.Ty | None:
    m, n = e.method, len(e.args)
    if base == T.CMP_ORDERING:
        if m in ORDERING_PREDICATES and n == 0:
            ck.r.methods[e] = ("trait", f"ord:{m}")
            return T.BOOL
        if m == "reverse" and n == 0:
            ck.r.methods[e] = ("trait", "ord:reverse")
            return T.CMP_ORDERING
        if m == "then" and n == 1:
            ck.coerce(ck.check_expr(e.args[0], T.CMP_ORDERING), T.CMP_ORDERING, e.args[0].span)
            ck.r.methods[e] = ("trait", "ord:then")
            return T.CMP_ORDERING
        if m == "then_with" and n == 1:  # the closure runs only when `o` is `Equal`
            ck.coerce(ck.closure_arg(e.args[0], [], T.CMP_ORDERING), T.CMP_ORDERING,
                      e.args[0].span)
            ck.r.methods[e] = ("trait", "ord:then_with")
            return T.CMP_ORDERING
    if m in ("max", "min", "clamp") and isinstance(base, (T.StructTy, T.EnumTy)):
        return ord_choice(ck, e, base)
    if m not in ("cmp", "partial_cmp", "total_cmp") or n != 1:
        return None
    total = isinstance(base, (T.IntTy, T.BoolTy)) or (
        isinstance(base, (T.StructTy, T.EnumTy)) and "Ord" in ck.derived(base)
        and ck.derived_comparable(base, "PartialOrd"))
    partial = total or isinstance(base, T.FloatTy) or (
        isinstance(base, (T.StructTy, T.EnumTy)) and "PartialOrd" in ck.derived(base)
        and ck.derived_comparable(base, "PartialOrd"))
    ok = {"cmp": total, "partial_cmp": partial,
          "total_cmp": isinstance(base, T.FloatTy) and base.bits in (32, 64)}[m]
    if not ok:
        return None
    want = T.RefTy(base, False)
    got = ck.deep(ck.check_expr(e.args[0], want))
    while isinstance(got, T.RefTy) and isinstance(ck.deep(got.inner), T.RefTy):
        got = ck.deep(got.inner)  # `&&f32` derefs to `&f32` (a closure's `|a, b|` of refs)
    ck.coerce(got, want, e.args[0].span)
    ck.r.methods[e] = ("trait", f"ord:{m}")
    return T.option_ty(T.CMP_ORDERING) if m == "partial_cmp" else T.CMP_ORDERING


def ord_choice(ck, e: ast.MethodCallExpr, base: T.Ty) -> T.Ty | None:
    """`a.max(b)`, `a.min(b)`, `a.clamp(lo, hi)` of an `Ord` type, core's default methods
    (lower/ordering.py), through a user `cmp` (`r.overloads[e]`) or the derived order."""
    want = 2 if e.method == "clamp" else 1
    derived = "Ord" in ck.derived(base) and ck.derived_comparable(base, "PartialOrd")
    user = [i.fns["cmp"] for i in ck.impls_of(base, "Ord") if "cmp" in i.fns]
    if len(e.args) != want or not (derived or user):
        return None
    for a in e.args:
        ck.coerce(ck.check_expr(a, base), base, a.span)
    if user:
        ck.r.overloads[e] = ("cmp", ck.impl_fn_sig(user[0], base, e.method_span))
    ck.r.methods[e] = ("trait", f"ord:{e.method}")
    return base
