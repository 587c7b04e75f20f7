"""A number type's method named through its path: `f32::max(a, b)` (Rust's fully qualified
call) and `f32::max` passed where a closure goes (`.fold(f32::NEG_INFINITY, f32::max)`).

Both become the method call they stand for, built once here and recorded in
`r.desugared` (lowering lowers the replacement instead):

    f32::max(a, b)        { let __self: f32 = a; __self }.max(b)
    f32::max              |__a, __b| { let __self: f32 = __a; __self }.max(__b)

The `let` with the path's type gives the receiver the coercion an argument gets: `a` must be
an `f32` (E0308 otherwise, as rustc says), and a literal takes the type (`u32::max(3, n)`).
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..resolve.traits import SCALAR_NAMES


def _prim_method(path: ast.Path) -> bool:
    """`f32::max`: a number type, then a method name (associated functions such as
    `f32::from_bits` are the device API's and are looked up first)."""
    segs = path.segments
    return len(segs) == 2 and segs[0].name in SCALAR_NAMES and not segs[0].generic_args \
        and segs[1].name[:1].islower()


def _receiver(path: ast.Path, value: ast.Expr, span, path_span) -> ast.Expr:
    """`{ let __self: f32 = value; __self }`; a mismatch points at `f32::max`."""
    ty = ast.PathType(path=ast.Path(segments=path.segments[:1], span=path_span), span=path_span)
    name = ast.IdentPat(name="__self", span=value.span)
    let = ast.LetStmt(pat=name, ty=ty, init=value, span=value.span)
    read = ast.PathExpr(path=ast.Path(segments=(ast.PathSegment(name="__self", span=span),),
                                      span=span), span=value.span)
    return ast.BlockExpr(block=ast.Block(stmts=(let,), tail=read, span=value.span),
                         span=value.span)


def method_call(path: ast.Path, args: tuple, span, path_span) -> ast.MethodCallExpr:
    return ast.MethodCallExpr(receiver=_receiver(path, args[0], span, path_span),
                              method=path.last.name,
                              method_span=path_span, generic_args=path.last.generic_args,
                              args=tuple(args[1:]), span=span)


class PrimPathMixin:

    def check_prim_method_call(self, e: ast.CallExpr, expected) -> T.Ty | None:
        """`f32::max(a, b)`, or None when `e` is no such call."""
        if not e.args or not _prim_method(e.func.path):
            return None
        call = method_call(e.func.path, e.args, e.span, e.func.span)
        self.r.desugared[e] = call
        return self.check_expr(call, expected)

    def prim_method_closure(self, c: ast.Expr, arity: int) -> ast.ClosureExpr | None:
        """`f32::max` where a closure of `arity` parameters goes, as that closure."""
        if not (isinstance(c, ast.PathExpr) and c.qself is None and arity
                and _prim_method(c.path)) or self.lookup(c.path.names[0]) is not None:
            return None
        span = c.span
        names = [f"__arg{k}" for k in range(arity)]
        params = tuple(ast.ClosureParam(pat=ast.IdentPat(name=n, span=span), ty=None, span=span)
                       for n in names)
        args = tuple(ast.PathExpr(path=ast.Path(segments=(ast.PathSegment(name=n, span=span),),
                                                span=span), span=span) for n in names)
        closure = ast.ClosureExpr(params=params, body=method_call(c.path, args, span, span),
                                  span=span)
        self.r.desugared[c] = closure
        return closure
