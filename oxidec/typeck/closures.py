"""Closures: `|x| expr`, `|a: f32, b| { .. }`, `move |x| ..`, their calls and their captures.

    closure_expr: MOVE? closure_params expr

A closure is checked where it is written. Its parameters take the types the context gives
(an adapter's item, an `Option`'s payload) or fresh inference variables (a `let`-bound
closure, whose parameters are then fixed by the body and the first call, as in rustc). Its
type is a `ClosureTy` unique to the expression.

Captures follow rustc's rules for the types oxidec has: a `move` closure copies (or moves)
every captured variable; otherwise a variable assigned or `&mut`-borrowed in the body is
captured by `&mut`, any other by `&`. Lowering (lower/closures.py) materialises the captures
as MIR borrows, so borrowck sees them, and inlines the body at every call.

Closures never escape: a closure value may only be bound by `let`, called, passed as an
argument, borrowed, or held in a struct, tuple or array built where it is written (a call
through such a value finds the closure by its type: lower/closures.py); any other use is
reported (`check_closure_escapes`).
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from ..ast_fields import child_fields
from .. import types as T
from ..diagnostics import Label
from .results import Var, describe


def fn_bound_of(ty: T.Ty) -> T.FnBoundTy | None:
    """The `impl Fn` bound of a parameter typed `F`, `&F` or `&mut F` (`F: Fn(..)`): Rust's
    `&F` is itself `Fn` (and `&mut F` is `FnMut`), and oxidec inlines the function at each
    call either way, so the reference changes nothing below typeck."""
    while isinstance(ty, T.RefTy):
        ty = ty.inner
    return ty if isinstance(ty, T.FnBoundTy) else None


def peel_refs(e: ast.Expr) -> ast.Expr:
    """`&f`, `&mut f`, `&&f` -> `f`: a closure or function passed by reference."""
    while isinstance(e, ast.RefExpr) and not e.raw:
        e = e.operand
    return e


@dataclass
class ClosureInfo:
    ty: T.ClosureTy
    captures: list[tuple[Var, str]]  # (variable, "ref" | "mut" | "move") in first-use order
    mutates: bool  # calling it needs `&mut` (an `FnMut`): the binding must be `mut`


def ast_children(node):
    """The AST nodes directly inside `node`, in source order."""
    for name in child_fields(node):
        v = getattr(node, name)
        if isinstance(v, ast.Node):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, ast.Node):
                    yield x


def ast_walk(node):
    """`node` and every AST node inside it, in preorder (iterative: a recursive generator
    paid the depth of the tree for every node)."""
    stack = [node]
    Node = ast.Node
    while stack:
        n = stack.pop()
        yield n
        kids = []  # ast_children(n), inline: this walk sees every node of every function
        for name in child_fields(n):
            v = getattr(n, name)
            if isinstance(v, Node):
                kids.append(v)
            elif isinstance(v, tuple):
                for x in v:
                    if isinstance(x, Node):
                        kids.append(x)
        kids.reverse()
        stack += kids


def place_root(e: ast.Expr) -> ast.Expr:
    """`a.b[i].c` -> `a`: the variable a place expression is rooted at (through fields and
    indexing, not through a deref: `*r = 1` writes through `r`, it does not assign `r`)."""
    while isinstance(e, (ast.FieldExpr, ast.IndexExpr)):
        e = e.base
    return e


class ClosureMixin:

    # -- closures as values ------------------------------------------------------
    def check_closure_expr(self, e: ast.ClosureExpr, expected):
        params = []
        for p in e.params:
            params.append(self.lower_type(p.ty) if p.ty is not None else self.fresh("any"))
        return self.check_closure_body(e, params, None)

    def check_closure_body(self, c: ast.ClosureExpr, params: list[T.Ty], expected) -> T.Ty:
        """Check `c` with parameters of types `params`; its type is recorded and returned
        (a `ClosureTy`); its captures are recorded in `r.closures`."""
        outer = {id(v) for scope in self.ctx.scopes for v in scope.values() if isinstance(v, Var)}
        self.ctx.scopes.append({})
        for p, ty in zip(c.params, params):
            if p.ty is not None:
                self.coerce(ty, self.lower_type(p.ty), p.span)
            self.bind_pattern(p.pat, ty, irrefutable=True)
        # `break`/`continue` cannot reach the loops around the closure; `return` would
        # return from the closure
        saved_loops, self.ctx.loops = self.ctx.loops, []
        for node in ast_walk(c.body):
            if isinstance(node, (ast.ReturnExpr, ast.TryExpr)):
                what = "`return`" if isinstance(node, ast.ReturnExpr) else "`?`"
                self.unsupported(node.span, f"{what} inside closures",
                                 help="make the closure's body an expression")
        if c.ret is not None:  # `|k| -> f32 { .. }`: the body has that type
            out = self.lower_type(c.ret)
            self.coerce(self.check_expr(c.body, out), out, c.body.span)
        else:
            out = self.check_expr(c.body, expected)
        self.ctx.loops = saved_loops
        self.ctx.scopes.pop()
        where = f"{c.span.file.name.rsplit('/', 1)[-1]}:{c.span.line}:{c.span.col}"
        ty = T.ClosureTy(id(c), tuple(params), out, where)
        captures, mutates = self.closure_captures(c, outer)
        self.r.closures[c] = ClosureInfo(ty, captures, mutates)
        self.r.expr_ty[c] = ty
        return ty

    def closure_captures(self, c: ast.ClosureExpr, outer: set[int]):
        """rustc's capture analysis, for the variables of the enclosing function."""
        order: list[Var] = []
        mutated: set[int] = set()
        for node in ast_walk(c.body):
            if isinstance(node, ast.PathExpr):
                res = self.r.res.get(node)
                var = getattr(res, "var", None)
                if var is not None and id(var) in outer and var not in order:
                    order.append(var)
            target = None
            if isinstance(node, (ast.AssignExpr, ast.CompoundAssignExpr)):
                target = place_root(node.lhs)
            elif isinstance(node, ast.RefExpr) and node.mutable:
                target = place_root(node.operand)
            if isinstance(target, ast.PathExpr):
                var = getattr(self.r.res.get(target), "var", None)
                if var is not None:
                    mutated.add(id(var))
        captures = []
        for var in order:
            if c.is_move:
                captures.append((var, "move"))
            else:
                captures.append((var, "mut" if id(var) in mutated else "ref"))
        return captures, any(id(v) in mutated for v in order)

    # -- calls of a closure ------------------------------------------------------
    def check_closure_call(self, e: ast.CallExpr, var: Var, cty) -> T.Ty:
        """`f(a, b)`: `f` a `let`-bound closure (`ClosureTy`) or an `impl Fn` parameter."""
        if not self.check_closure_args(e, cty):
            return cty.ret
        self.r.calls[e] = ("closure", var)
        if isinstance(cty, T.FnBoundTy):
            by_mut_ref = isinstance(self.shallow(var.ty), T.RefTy) and var.ty.mutable
            if cty.trait == "FnMut" and not var.mutable and not by_mut_ref:
                self.not_mut_closure(e, var)
            return cty.ret
        info = next((i for i in self.r.closures.values() if i.ty.key == cty.key), None)
        if info is not None and info.mutates and not var.mutable:
            self.not_mut_closure(e, var)
        return cty.ret

    def check_closure_value_call(self, e: ast.CallExpr, cty) -> T.Ty:
        """`(s.f)(x)`, `(*r)(x)`: a closure reached through a value, not a variable."""
        if self.check_closure_args(e, cty):
            self.r.calls[e] = ("closure_value", cty)
        return cty.ret

    def check_closure_args(self, e: ast.CallExpr, cty) -> bool:
        """The arguments of a closure call against its parameters; False (E0057 reported,
        each argument still checked) when their number is wrong."""
        if len(e.args) != len(cty.params):
            n, m = len(cty.params), len(e.args)
            self.sink.error("E0057", f"this function takes {n} argument{'s' if n != 1 else ''} "
                            f"but {m} argument{'s were' if m != 1 else ' was'} supplied",
                            e.span, f"expected {n} argument{'s' if n != 1 else ''}")
            for a in e.args:
                self.check_expr(a)
            return False
        for a, p in zip(e.args, cty.params):
            self.coerce(self.check_expr(a, p), p, a.span)
        return True

    def not_mut_closure(self, e: ast.CallExpr, var: Var) -> None:
        self.sink.error("E0596", f"cannot borrow `{var.name}` as mutable, as it is not "
                        "declared as mutable", e.func.span, "cannot borrow as mutable",
                        labels=[Label(var.span, "help: consider changing this to be "
                                      f"mutable: `mut {var.name}`")])

    # -- `impl Fn(..)` parameters ----------------------------------------------------
    def fn_bound_type(self, te: ast.FnTraitType) -> T.Ty:
        params = tuple(self.lower_type(p) for p in te.params)
        ret = self.lower_type(te.ret) if te.ret is not None else T.UNIT
        if te.trait not in ("Fn", "FnMut", "FnOnce"):
            self.unsupported(te.span, f"`impl {te.trait}` types",
                             help="closure parameters are `impl Fn(..)`, `impl FnMut(..)` or "
                                  "`impl FnOnce(..)`")
            return T.ERROR
        return T.FnBoundTy(te.trait, params, ret)

    def fn_bound_params(self, fn: ast.FnItem, env: dict) -> None:
        """A type parameter bounded by `Fn(A) -> R` (FnMut, FnOnce) takes the bound itself as
        its argument: `fn apply<F: Fn(f32) -> f32>(f: F)` is `fn apply(f: impl Fn(f32) ->
        f32)`, one instance inlined at each call with the closure it gets."""
        from ..resolve.generics import bounds, own_params
        for p in own_params(fn):
            if p.kind != "type" or not isinstance(env.get(p.name), T.InferTy):
                continue
            for b in bounds(self.items, fn, p.name):
                trait = b.path.names[-1]
                if trait in ("Fn", "FnMut", "FnOnce") and b.fn_args is not None:
                    with self.in_scope_of(fn):
                        saved, self.generic_env = self.generic_env, env
                        try:
                            params = tuple(self.lower_type(t) for t in b.fn_args)
                            ret = self.lower_type(b.fn_ret) if b.fn_ret else T.UNIT
                        finally:
                            self.generic_env = saved
                    env[p.name] = T.FnBoundTy(trait, params, ret)
                    break

    def check_closure_arg_for(self, a: ast.Expr, p: T.FnBoundTy) -> None:
        """A closure passed for an `impl Fn` parameter: its parameters take the bound's types,
        it returns the bound's, and it does what the trait allows (rustc's E0525)."""
        out = self.closure_arg(a, list(p.params), p.ret)
        self.coerce(out, p.ret, a.body.span if isinstance(a, ast.ClosureExpr) else a.span)
        info = self.r.closures.get(a) if isinstance(a, ast.ClosureExpr) else None
        if info is not None and info.mutates and p.trait == "Fn":
            self.sink.error("E0525", "expected a closure that implements the `Fn` trait, but "
                            "this closure only implements `FnMut`", a.span,
                            "this closure implements `FnMut`, not `Fn`",
                            help="take an `impl FnMut(..)` parameter, or leave the captured "
                                 "variables unchanged")

    def closure_escapes(self, span, how: str) -> None:
        self.sink.error("OX0002", "a closure may not escape where it is written", span,
                        f"the closure is {how}",
                        notes=["oxidec inlines every closure at its calls: a closure can be "
                               "bound with `let`, called, passed as an argument, or held in "
                               "a struct, tuple or array built where it is written, but not "
                               "returned or taken out of its block"])

    def closure_arg(self, c: ast.Expr, params: list[T.Ty], expected) -> T.Ty:
        """A closure passed as an argument (an adapter's `f`): written inline or a
        `let`-bound closure variable; returns what it returns."""
        c = self.prim_method_closure(c, len(params)) or c  # `f32::max`: typeck/prim_paths.py
        if isinstance(c, ast.ClosureExpr):
            if len(c.params) != len(params):
                self.closure_arity(c, len(params))
                return T.ERROR
            return self.check_closure_body(c, params, expected).ret
        ty = self.shallow(self.check_expr(c))
        while isinstance(ty, T.RefTy):  # `&f`, a `&fn(..)` variable: Rust's `&F: Fn`
            ty = self.shallow(ty.inner)
        if isinstance(ty, (T.ClosureTy, T.FnBoundTy, T.FnPtrTy)):  # a fn value fits too
            if len(ty.params) != len(params):
                self.closure_arity(c, len(params), len(ty.params))
                return T.ERROR
            for want, have in zip(params, ty.params):
                self.coerce(want, have, c.span)
            return ty.ret
        if not isinstance(ty, T.ErrorTy):
            self.sink.error("E0277", f"expected a closure, found {describe(self.deep(ty))}",
                            c.span, "expected a closure",
                            help="pass a closure: `|x| ...`")
        return T.ERROR

    def closure_arity(self, c: ast.Expr, want: int, have: int | None = None) -> None:
        have = len(c.params) if have is None else have
        self.sink.error("E0593", f"closure is expected to take {want} argument"
                        f"{'s' if want != 1 else ''}, but it takes {have} "
                        f"argument{'s' if have != 1 else ''}", c.span,
                        f"takes {have} argument{'s' if have != 1 else ''}")

    # -- closures and iterators never escape ---------------------------------------
    def check_closure_escapes(self, body: ast.Block) -> None:
        """A value of a closure or iterator type used anywhere but where it is consumed."""
        nodes = list(ast_walk(body))
        # the values of such types first: most functions have none, and then where values
        # may be consumed need not be asked of every node
        expr_ty, shallow, Expr = self.r.expr_ty, self.shallow, ast.Expr
        suspects = [node for node in nodes if isinstance(node, Expr) and isinstance(
            shallow(expr_ty.get(node, T.ERROR)), (T.ClosureTy, T.FnBoundTy, T.IterTy))]
        if not suspects:
            return
        allowed: set[int] = set()
        returned = {id(body.tail)} if body.tail is not None else set()
        for node in nodes:
            if isinstance(node, ast.ReturnExpr) and node.value is not None:
                returned.add(id(node.value))
            if isinstance(node, ast.LetStmt) and isinstance(node.pat, ast.IdentPat) \
                    and node.init is not None and node.pat.sub is None:
                if isinstance(self.shallow(self.r.expr_ty.get(node.init, T.ERROR)), T.ClosureTy):
                    allowed.add(id(node.init))
            elif isinstance(node, ast.CallExpr):
                allowed.add(id(node.func))
                allowed.update(id(a) for a in node.args)
            elif isinstance(node, ast.MethodCallExpr):
                allowed.add(id(node.receiver))
                allowed.update(id(a) for a in node.args)
            elif isinstance(node, ast.ForExpr):
                allowed.add(id(node.iter))
            elif isinstance(node, ast.StructExpr):  # held in a value: called through it
                allowed.update(id(x) for _, x in node.fields)
            elif isinstance(node, (ast.TupleExpr, ast.ArrayExpr)):
                allowed.update(id(x) for x in node.elems)
            elif isinstance(node, ast.RefExpr) and not node.raw:
                allowed.add(id(node.operand))
        for node in suspects:
            if id(node) in allowed:
                continue
            ty = self.shallow(self.r.expr_ty.get(node, T.ERROR))
            if isinstance(ty, (T.ClosureTy, T.FnBoundTy)):
                self.closure_escapes(node.span, "returned from the function that creates it"
                                     if id(node) in returned else "used as a value here")
            elif isinstance(ty, T.IterTy):
                self.sink.error("OX0002", "an iterator must be consumed where it is written",
                                node.span, "the iterator is used as a value here",
                                notes=["oxidec turns an iterator chain into one loop: write "
                                       "it as the iterable of a `for` loop or end it with a "
                                       "consumer such as `.sum()`"])
