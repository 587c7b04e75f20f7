"""Compile-time evaluation of `const` items, array lengths and const generic arguments.

The subset is what kernels use for sizes: literals, other consts, `u32::MAX`-style
associated constants, `f32::consts::PI`, unary and binary arithmetic with the target type's
wrapping semantics, comparisons, and `as` casts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from . import ast
from . import types as T
from .diagnostics import DiagnosticSink
from .mir.syntax import Constant
from .passes.consteval import eval_binary, eval_cast, eval_unary, round_float


@dataclass(frozen=True)
class ConstValue:
    value: int | float | bool
    ty: T.Ty


def cast_value(value, src: T.Ty, dst: T.Ty):
    """Rust `as` on a compile-time value, with the MIR folder's exact semantics."""
    c = eval_cast(Constant(value, src), dst)
    return c.value if c is not None else value


class ConstEvaluator:
    def __init__(self, items, sink: DiagnosticSink, lower_type):
        self.items = items
        self.sink = sink
        self.lower_type = lower_type
        self.memo: dict[str, ConstValue | None] = {}
        self.active: set[str] = set()

    def eval_item(self, item: ast.ConstItem) -> ConstValue | None:
        key = f"{id(item)}"
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            self.sink.error("E0391", f"cycle detected when evaluating constant `{item.name}`",
                            item.name_span, "the constant refers to itself")
            return None
        self.active.add(key)
        ty = self.lower_type(item.ty)
        value = self.eval(item.value, ty)
        self.active.discard(key)
        if value is not None and value.ty != ty and not isinstance(ty, T.ErrorTy):
            self.sink.error("E0308", "mismatched types", item.value.span,
                            f"expected `{ty}`, found `{value.ty}`")
            value = None
        self.memo[key] = value
        return value

    def eval_usize(self, e: ast.Expr) -> int | None:
        v = self.eval(e, T.USIZE)
        if v is None:
            return None
        if v.ty != T.USIZE:
            self.sink.error("E0308", "mismatched types", e.span, f"expected `usize`, found `{v.ty}`")
            return None
        return v.value

    def eval_assoc(self, e: ast.PathExpr) -> ConstValue | None:
        """`u32::MAX`, `f32::EPSILON`, `f32::consts::PI`, `core::f32::consts::PI`."""
        names = list(e.path.names)
        while names and names[0] in ("core", "std"):
            names = names[1:]
        if len(names) == 2 and names[0] in T.SCALARS and names[1] in T.SCALAR_ASSOC_CONSTS:
            ty = T.SCALARS[names[0]]
            if ty == T.BOOL:
                return None
            if names[1] == "BITS":
                if not isinstance(ty, T.IntTy):
                    return None
                return ConstValue(ty.bits, T.U32)
            if isinstance(ty, T.IntTy) and names[1] not in ("MAX", "MIN"):
                return None
            value = T.SCALAR_ASSOC_CONSTS[names[1]](ty)
            return ConstValue(cast_value(value, ty, ty), ty)
        if len(names) == 3 and names[0] in ("f32", "f64") and names[1] == "consts" \
                and names[2] in T.FLOAT_CONSTS:
            ty = T.SCALARS[names[0]]
            return ConstValue(round_float(T.FLOAT_CONSTS[names[2]], ty), ty)
        return None

    def fail(self, e: ast.Expr, what: str = "this expression") -> None:
        self.sink.error("E0080", "evaluation of constant value failed", e.span,
                        f"{what} cannot be evaluated at compile time")

    def eval(self, e: ast.Expr, expected: T.Ty | None) -> ConstValue | None:
        if isinstance(e, ast.LitExpr):
            return self.eval_lit(e, expected)
        if isinstance(e, ast.PathExpr):
            names = e.path.names
            if len(names) == 1 and names[0] in self.items.consts:
                return self.eval_item(self.items.consts[names[0]])
            v = self.eval_assoc(e)
            if v is None:
                if len(names) == 1:
                    self.sink.error("E0435", "attempt to use a non-constant value in a "
                                    "constant", e.span, "non-constant value")
                else:
                    self.fail(e)
            return v
        if isinstance(e, ast.UnaryExpr) and e.op in "-!":
            v = self.eval(e.operand, expected)
            if v is None:
                return None
            r = eval_unary("neg" if e.op == "-" else "not", Constant(v.value, v.ty))
            if r is None:
                self.fail(e, "this operation")
                return None
            return ConstValue(r.value, r.ty)
        if isinstance(e, ast.BinaryExpr):
            return self.eval_binary(e, expected)
        if isinstance(e, ast.CastExpr):
            dst = self.lower_type(e.ty)
            v = self.eval(e.expr, None)
            if v is None:
                return None
            return ConstValue(cast_value(v.value, v.ty, dst), dst)
        if isinstance(e, ast.BlockExpr) and not e.block.stmts and e.block.tail is not None:
            return self.eval(e.block.tail, expected)
        self.fail(e)
        return None

    def eval_lit(self, e: ast.LitExpr, expected: T.Ty | None) -> ConstValue | None:
        if e.kind == "bool":
            return ConstValue(e.value, T.BOOL)
        if e.kind not in ("int", "float"):
            self.fail(e)
            return None
        if e.suffix:
            ty = T.SCALARS.get(e.suffix)
        elif e.kind == "int":
            ty = expected if isinstance(expected, (T.IntTy, T.FloatTy)) else T.I32
            if isinstance(ty, T.FloatTy):
                ty = T.I32
        else:
            ty = expected if isinstance(expected, T.FloatTy) else T.F64
        if ty is None or ty == T.BOOL:
            self.fail(e, "this literal")
            return None
        if isinstance(ty, T.IntTy):
            lo, hi = T.int_range(ty)
            if not lo <= e.value <= hi:
                self.sink.error("OX0007", f"literal out of range for `{ty}`", e.span,
                                f"does not fit in `{ty}`")
                return None
            return ConstValue(int(e.value), ty)
        return ConstValue(round_float(float(e.value), ty), ty)

    def eval_binary(self, e: ast.BinaryExpr, expected) -> ConstValue | None:
        comparison = e.op in ("==", "!=", "<", "<=", ">", ">=")
        a = self.eval(e.lhs, None if comparison else expected)
        if a is None:
            return None
        b = self.eval(e.rhs, a.ty if e.op not in ("<<", ">>") else None)
        if b is None:
            return None
        if e.op not in ("<<", ">>") and a.ty != b.ty:
            self.sink.error("E0308", "mismatched types", e.rhs.span,
                            f"expected `{a.ty}`, found `{b.ty}`")
            return None
        x, y, ty = a.value, b.value, a.ty
        if e.op in ("&&", "||"):
            return ConstValue(x and y if e.op == "&&" else x or y, T.BOOL)
        op = ast.BINOPS.get(e.op)
        if op in ("div", "rem") and y == 0:
            if isinstance(ty, T.IntTy):
                self.sink.error("E0080", "evaluation of constant value failed", e.span,
                                "attempt to divide by zero")
                return None
            if op == "div":  # IEEE: x / 0 is an infinity (NaN for 0 / 0)
                return ConstValue(math.copysign(math.inf, x) if x else math.nan, ty)
        r = eval_binary(op, Constant(x, ty), Constant(y, b.ty)) if op else None
        if r is not None:
            return ConstValue(r.value, r.ty)
        if op in ("div", "rem") and isinstance(ty, T.IntTy):
            self.sink.error("E0080", "evaluation of constant value failed", e.span,
                            "attempt to divide with overflow")
            return None
        self.fail(e, "this operation")
        return None
