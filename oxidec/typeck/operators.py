"""rustc's operator-trait errors (E0277) and numeric conversion helps, for the checker.

    let a = x * y;        // x: f32, y: f64
    error[E0308]: mismatched types          (the operand: expected `f32`, found `f64`)
    error[E0277]: cannot multiply `f32` by `f64`   (the operator: no `Mul<f64>` for `f32`)

With a literal on one side (`x * 2`) rustc gives only the E0277, naming the literal's type
`{integer}`; comparisons give only the E0308. A plain integer mismatch at a coercion site
(`let s: usize = i` with `i: u32`) gets rustc's conversion help: `.into()` where the
conversion is lossless (`From` exists), else `.try_into().unwrap()`.
"""
from __future__ import annotations

import re

from .. import ast
from .. import types as T

# op -> (trait, message with {l} and {r}); compound assignments add "Assign"
BINARY = {
    "+": ("Add", "cannot add `{r}` to `{l}`"),
    "-": ("Sub", "cannot subtract `{r}` from `{l}`"),
    "*": ("Mul", "cannot multiply `{l}` by `{r}`"),
    "/": ("Div", "cannot divide `{l}` by `{r}`"),
    "%": ("Rem", "cannot calculate the remainder of `{l}` divided by `{r}`"),
    "&": ("BitAnd", "no implementation for `{l} & {r}`"),
    "|": ("BitOr", "no implementation for `{l} | {r}`"),
    "^": ("BitXor", "no implementation for `{l} ^ {r}`"),
}
COMPOUND = {
    "+": "cannot add-assign `{r}` to `{l}`",
    "-": "cannot subtract-assign `{r}` from `{l}`",
    "*": "cannot multiply-assign `{l}` by `{r}`",
    "/": "cannot divide-assign `{l}` by `{r}`",
    "%": "cannot calculate and assign the remainder of `{l}` divided by `{r}`",
    "&": "no implementation for `{l} &= {r}`",
    "|": "no implementation for `{l} |= {r}`",
    "^": "no implementation for `{l} ^= {r}`",
}


def trait_name(ty: T.Ty) -> str:
    """A type as rustc writes it inside a trait error: literals are `{integer}`/`{float}`."""
    if isinstance(ty, T.InferTy):
        return {"int": "{integer}", "float": "{float}"}.get(ty.kind, "_")
    return str(ty)


def is_numeric(ty: T.Ty) -> bool:
    return T.is_numeric(ty) or (
        isinstance(ty, T.InferTy) and ty.kind in ("int", "float"))


def operator_mismatch(checker, op: str, lhs: ast.Expr, rhs: ast.Expr, op_span, lt: T.Ty,
                      rt: T.Ty, *, compound: bool = False) -> None:
    """Operands of `op` whose types differ: E0308 on the right operand where rustc gives it,
    and E0277 on the operator when both sides are numbers."""
    l, r = checker.deep(lt), checker.deep(rt)
    literal = isinstance(l, T.InferTy) or isinstance(r, T.InferTy)
    numeric = is_numeric(l) and is_numeric(r)
    if not (numeric and literal):
        checker.mismatch(lt, rt, rhs.span)
    if not numeric or op not in BINARY:
        return
    trait, message = BINARY[op]
    shown = {"l": trait_name(l), "r": trait_name(r)}
    sign = op + "=" if compound else op
    if compound:
        trait, message = trait + "Assign", COMPOUND[op]
    checker.sink.error("E0277", message.format(**shown), op_span,
                       f"no implementation for `{shown['l']} {sign} {shown['r']}`",
                       help=f"the trait `{trait}<{shown['r']}>` is not implemented for "
                            f"`{shown['l']}`")


# -- operands behind a shared reference ---------------------------------------------------

def scalar_ref(checker, ty: T.Ty) -> T.Ty | None:
    """`T` when `ty` is `&T` of a number or bool (Rust's `impl Add<f32> for &f32` ...)."""
    s = checker.shallow(ty)
    if isinstance(s, T.RefTy) and not s.mutable:
        inner = checker.shallow(s.inner)
        if is_numeric(inner) or isinstance(inner, T.BoolTy):
            return inner
    return None


def deref_operands(checker, e: ast.BinaryExpr, lt: T.Ty, rt: T.Ty, comparison: bool):
    """The operand types after Rust's reference impls of the operator traits: arithmetic takes
    `&x` on either side (`v * 2.0` with `v: &f32`), a comparison `&x` on both sides. The
    operands read through the reference are noted for lowering (`r.deref_operands`)."""
    lref, rref = scalar_ref(checker, lt), scalar_ref(checker, rt)
    if comparison and (lref is None or rref is None):
        return lt, rt
    for side, inner in ((e.lhs, lref), (e.rhs, rref)):
        if inner is not None:
            checker.r.deref_operands.add(side)
    return (lref if lref is not None else lt), (rref if rref is not None else rt)


# -- conversions ------------------------------------------------------------------------------

def lossless(src: T.IntTy, dst: T.IntTy) -> bool:
    """Whether Rust has `From<src> for dst`: wider of the same signedness, unsigned to wider
    signed; usize/isize only from the integers that fit in 16 bits."""
    if src.pointer_sized:
        return False
    if dst.pointer_sized:
        if dst.signed:
            return src.bits == 8 or (src.signed and src.bits == 16)
        return not src.signed and src.bits <= 16
    if src.signed:
        return dst.signed and dst.bits > src.bits
    return dst.bits > src.bits


def conversion_help(expected: T.Ty, actual: T.Ty, expr_text: str) -> str | None:
    """rustc's help for an integer of the wrong type where a value is expected."""
    if not (isinstance(expected, T.IntTy) and isinstance(actual, T.IntTy)) or expected == actual:
        return None
    simple = re.fullmatch(r"[A-Za-z_][\w.]*(\([^()]*\))?", expr_text) is not None
    value = expr_text if simple else f"({expr_text})"
    if lossless(actual, expected):
        return f"you can convert a `{actual}` to a `{expected}`: `{value}.into()`"
    return (f"you can convert a `{actual}` to a `{expected}` and panic if the converted value "
            f"doesn't fit: `{value}.try_into().unwrap()`")
