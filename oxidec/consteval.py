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
from .passes.consteval import eval_binary, eval_cast, eval_unary
from .const_aggregates import ConstAggregateMixin
from .const_fn import ConstFnMixin
from .syntax.literals import Decimal, float_literal


@dataclass(frozen=True)
class ConstValue:
    value: int | float | bool
    ty: T.Ty


def cast_value(value, src: T.Ty, dst: T.Ty):
    """Rust `as` on a compile-time value, with the MIR folder's exact semantics."""
    c = eval_cast(Constant(value, src), dst)
    return c.value if c is not None else value


FLOATS = ("f16", "bf16", "f32", "f64")


class ConstEvaluator(ConstFnMixin, ConstAggregateMixin):
    def __init__(self, items, sink: DiagnosticSink, lower_type, tc=None):
        self.items = items
        self.sink = sink
        self.lower_type = lower_type
        self.tc = tc  # the type checker: its resolver and scopes name the consts
        self.module = items.root
        self.memo: dict[str, ConstValue | None] = {}
        self.active: set[str] = set()
        # the impl parameters for the next `eval_item` (`Grid::<3>::LEN`: N = 3), set by the
        # path that names an associated const of a generic impl
        self.assoc_env: dict = {}

    def eval_item(self, item: ast.ConstItem) -> ConstValue | None:
        env, self.assoc_env = self.assoc_env, {}
        key = self.item_key(item, env)
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            self.sink.error("E0391", f"cycle detected when evaluating constant `{item.name}`",
                            item.name_span, "the constant refers to itself")
            return None
        self.active.add(key)
        if self.tc is not None:
            with self.tc.in_scope_of(item):
                if env:
                    self.tc.generic_env = {**self.tc.generic_env, **env}
                ty = self.lower_type(item.ty)
                value = self.eval(item.value, ty)
        else:
            ty = self.lower_type(item.ty)
            value = self.eval(item.value, ty)
        self.active.discard(key)
        if value is not None and value.ty != ty and not isinstance(ty, T.ErrorTy):
            self.sink.error("E0308", "mismatched types", item.value.span,
                            f"expected `{ty}`, found `{value.ty}`")
            value = None
        self.memo[key] = value
        return value

    @staticmethod
    def item_key(item: ast.ConstItem, env: dict | None = None) -> str:
        """The memo key of a const item: with the impl parameters it is evaluated with, since
        an associated const of `impl<const N: usize> S<N>` has a value per instance."""
        args = sorted((k, repr(getattr(v, "value", v))) for k, v in (env or {}).items())
        return f"{id(item)}{args}" if args else f"{id(item)}"

    def try_eval_item(self, item: ast.ConstItem) -> ConstValue | None:
        """`eval_item` without diagnostics: None when the folder cannot evaluate it (the
        caller then computes the value at run time)."""
        from .diagnostics import DiagnosticSink
        key = self.item_key(item)
        if key in self.memo:
            return self.memo[key]
        saved = self.sink
        self.sink = DiagnosticSink()
        try:
            value = self.eval_item(item)
        finally:
            failed = self.sink.has_errors
            self.sink = saved
        if failed or value is None:
            self.memo.pop(key, None)
            return None
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
        if len(names) == 2 and names[0] in ("f32", "f64") and names[1] in T.FLOAT_INT_CONSTS:
            ty_name, v32, v64 = T.FLOAT_INT_CONSTS[names[1]]
            return ConstValue(v32 if names[0] == "f32" else v64, T.SCALARS[ty_name])
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
        if len(names) == 3 and names[0] in FLOATS and names[1] == "consts" \
                and names[2] in T.FLOAT_CONSTS:
            ty = T.SCALARS[names[0]]
            return ConstValue(float_literal(Decimal.parse(T.FLOAT_CONSTS[names[2]]), ty),
                              ty)
        if len(names) == 2 and names[0] in ("f16", "bf16"):  # the `half` crate's consts
            ty = T.SCALARS[names[0]]
            if names[1] in T.FLOAT_CONSTS:  # `f16::PI`
                return ConstValue(float_literal(Decimal.parse(T.FLOAT_CONSTS[names[1]]), ty),
                                  ty)
            if names[1] in T.HALF_CONSTS:  # `f16::ONE`, `bf16::MIN_POSITIVE_SUBNORMAL`
                return ConstValue(T.HALF_CONSTS[names[1]](ty), ty)
        return None

    def const_item(self, path: ast.Path) -> ast.ConstItem | None:
        """The const item a path names (`N`, `m::N`, `S::N`, `Self::N`), if any."""
        if self.tc is None:
            item = self.items.consts.get(path.names[0]) if len(path.names) == 1 else None
            return item
        res = self.tc.resolve_value_path(path)
        if (res is None or res.def_ is None) and len(path.names) == 2 \
                and path.names[0] == "Self" and self.tc.self_impl is not None:
            # `Self::N` inside a generic impl (its `Self` is no one type): the impl's own
            d = next((d for (_, n), d in self.items.assoc.items() if n == path.names[1]
                      and d.impl_item is self.tc.self_impl and d.kind == "const"), None)
            return d.item if d is not None else None
        if res is None or res.def_ is None:
            return None
        d = res.def_
        if res.assoc is not None:
            d = self.items.assoc.get((d.key, res.assoc))
            if d is None:
                return None
        return d.item if d.kind == "const" else None

    def fail(self, e: ast.Expr, what: str = "this expression") -> None:
        self.sink.error("E0080", "evaluation of constant value failed", e.span,
                        f"{what} cannot be evaluated at compile time")

    def eval(self, e: ast.Expr, expected: T.Ty | None) -> ConstValue | None:
        if isinstance(e, ast.LitExpr):
            return self.eval_lit(e, expected)
        if isinstance(e, ast.PathExpr):
            names = e.path.names
            scope = self.lookup_local(names[0]) if len(names) == 1 else None
            if scope is not None:  # a local of a const fn being interpreted (const_fn.py)
                return scope[names[0]]
            generic = self.tc.generic_const(names) if self.tc is not None else None
            if generic is not None:  # a const parameter of a generic instance
                return generic
            item = self.const_item(e.path)
            if item is not None:
                # `Grid::<3>::LEN`: with the instance's parameters
                env = self.tc.assoc_env_of_path(e) if self.tc is not None else {}
                if not env and names[0] == "Self" and self.tc is not None:
                    env = dict(self.tc.generic_env)  # `Self::N` in the impl: its parameters
                self.assoc_env = env
                return self.eval_item(item)
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
        if isinstance(e, ast.CallExpr):
            return self.eval_call(e, expected)
        if isinstance(e, ast.MethodCallExpr) and e.method in ("to_bits", "wrapping_add",
                                                             "wrapping_sub", "wrapping_mul"):
            return self.eval_method(e, expected)
        if isinstance(e, (ast.IfExpr, ast.BlockExpr, ast.LoopExpr)) and not (
                isinstance(e, ast.BlockExpr) and e.unsafe):
            if getattr(self, "env", None):
                return self.exec_expr(e, expected)
            return self.eval_in_frame(e, expected)  # `const T: [f32; 4] = { let .. };`
        v = self.eval_aggregate(e, expected)  # const_aggregates.py
        if v is not False:
            return v
        self.fail(e)
        return None

    def eval_method(self, e: ast.MethodCallExpr, expected) -> ConstValue | None:
        v = self.eval(e.receiver, expected)
        if v is None:
            return None
        if e.method == "to_bits" and isinstance(v.ty, T.FloatTy) and not e.args:
            import struct
            fmt = ("<f", "<I", T.U32) if v.ty == T.F32 else ("<d", "<Q", T.U64)
            return ConstValue(struct.unpack(fmt[1], struct.pack(fmt[0], v.value))[0], fmt[2])
        if isinstance(v.ty, T.IntTy) and len(e.args) == 1:
            w = self.eval(e.args[0], v.ty)
            if w is None:
                return None
            op = {"wrapping_add": "add", "wrapping_sub": "sub", "wrapping_mul": "mul"}[e.method]
            r = eval_binary(op, Constant(v.value, v.ty), Constant(w.value, v.ty))
            return ConstValue(r.value, r.ty) if r is not None else None
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
        return ConstValue(float_literal(e.value, ty), ty)

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
