"""Closures, inlined at every call.

    closure_expr: MOVE? closure_params expr

Where a closure is evaluated (its `let`, or the adapter call it is an argument of), its
captures become MIR values, as rustc's closure struct holds them:

    let f = |x| x * a + b;       _7 = &_2;  _8 = &_3;        (by `&`; `&mut` when assigned)
    let g = move |x| x + a;      _9 = copy _2;               (by value)

A call `f(v)` binds the parameters to the arguments and lowers the body with the captured
variables read through those values (`(*_7)`, `_9`). So borrowck sees each capture borrowed
from the closure's creation to its last call, exactly like rustc, and `ref_elim` turns the
`&_2` / `(*_7)` pairs back into `_2` once borrowck is done: no per-call cost remains.

A closure written inline as an argument (`.map(|x| x * a)`) is used up by the call it is
passed to, so its `&` captures are read in place; only its `move` captures are copied.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..typeck import LocalRes
from ..typeck.closures import ast_walk, fn_bound_of, peel_refs
from .builder import UNIT_CONST
from .fn_values import FnValueEnv


@dataclass
class ClosureEnv:
    closure: ast.ClosureExpr
    places: dict[int, M.Place]  # id(captured Var) -> where the body finds it


class ClosureLowering:

    def fresh_locals(self, *nodes) -> None:
        """New locals for the variables bound inside `nodes`, which are being lowered once
        more (a closure's second call, a `for` body under `chain`): each copy assigns its own
        references once, as ref_elim wants."""
        for node in nodes:
            for n in ast_walk(node):
                if isinstance(n, ast.IdentPat) and n in self.r.pat_var:
                    self.var_local.pop(id(self.r.pat_var[n]), None)

    def var_place(self, var) -> M.Place:
        """Where a variable lives: its local, or, inside an inlined closure body, the
        closure's capture of it."""
        place = self.var_places.get(id(var))
        if place is None and id(var) in self.ref_aliases:
            return self.alias_ref(var)
        return place if place is not None else M.Place(self.local_for(var))

    def lower_closure_expr(self, e: ast.ClosureExpr) -> M.Operand:
        """A closure stored in a value (`Holder { f: |x| .. }`): its captures are taken
        here, and a call through the value finds them by the closure's type, which names
        this one closure; the value itself is zero-sized."""
        ty = self.ty(e)
        if not isinstance(ty, T.ClosureTy):
            return self.unsupported(e.span, "a closure used as a value is")
        self.closure_keys[ty.key] = self.closure_env(e, inline=False)
        return UNIT_CONST

    def lower_closure_value_call(self, e: ast.CallExpr, cty) -> M.Operand:
        """`(s.f)(x)`: the closure the callee's type names, with its captures as taken
        where it was written (in this body, or in the caller of an inlined method)."""
        env = self.closure_keys.get(cty.key) if isinstance(cty, T.ClosureTy) else None
        args = self.lower_in_order(e.args)
        if env is None:
            return self.unsupported(e.func.span, "calling a closure created in another "
                                                 "function through a value is",
                                    help="build the struct that holds the closure in the "
                                         "function that writes the closure")
        return self.call_closure(env, args, e.func.span)

    def closure_env(self, c: ast.ClosureExpr, inline: bool) -> ClosureEnv:
        """Evaluate the closure `c`: capture its variables (see the module docstring)."""
        info = self.r.closures.get(c)
        places: dict[int, M.Place] = {}
        for var, mode in (info.captures if info else ()):
            here = self.var_place(var)
            if mode == "move":
                t = self.new_local(var.ty, c.span, None, True)
                self.assign(M.Place(t), M.Use(self.read(here, var.ty)), c.span)
                places[id(var)] = M.Place(t)
            elif not inline:
                mutable = mode == "mut"
                t = self.new_local(T.RefTy(var.ty, mutable), c.span, None, False)
                self.assign(M.Place(t), M.Ref(here, mutable), c.span)
                places[id(var)] = M.Place(t, (M.Deref(),))
        return ClosureEnv(c, places)

    def lower_closure_let(self, stmt: ast.LetStmt) -> None:
        """`let f = |..| ..;` (or `let g = f;`): remember the evaluated closure for `f`."""
        var = self.r.pat_var.get(stmt.pat)
        if isinstance(stmt.init, ast.ClosureExpr):
            env = self.closure_env(stmt.init, inline=False)
        else:
            env = self.closure_of(stmt.init)
        if var is not None and env is not None:
            self.closure_vars[id(var)] = env
            ty = self.ty(stmt.init)
            if isinstance(ty, T.ClosureTy):  # `&f`, `(*r)(x)`: found by its type
                self.closure_keys.setdefault(ty.key, env)

    def closure_of(self, e: ast.Expr) -> ClosureEnv | None:
        """The closure a path expression names (a `let`-bound closure)."""
        res = self.r.res.get(e) if isinstance(e, ast.PathExpr) else None
        if isinstance(res, LocalRes):
            return self.closure_vars.get(id(res.var))
        return None

    def closure_arg_env(self, arg: ast.Expr) -> ClosureEnv | None:
        """A closure passed as an argument, evaluated where the call evaluates it."""
        arg = peel_refs(arg)  # `&f`, `&mut f`: the closure itself
        arg = self.r.desugared.get(arg, arg)  # `f32::max` as a closure: typeck/prim_paths.py
        if isinstance(arg, ast.ClosureExpr):
            return self.closure_env(arg, inline=True)
        env = self.closure_of(arg) or self.fn_value_env(arg)  # a fn value (fn_values.py)
        if env is None:
            self.unsupported(arg.span, "this closure argument is")
        return env

    def call_closure(self, env: ClosureEnv | None, args: list, span) -> M.Operand:
        """The value of the closure's body with its parameters bound to `args` (operands,
        places, or iterator items: lower/iterators.py)."""
        if env is None:
            return UNIT_CONST
        if isinstance(env, FnValueEnv):  # a function passed for an `F: Fn(..)` parameter
            return self.call_fn_value(env.value, env.ty, [self.fn_value_arg(a, t) for a, t in
                                                          zip(args, env.ty.params)], span)
        c = env.closure
        for place in env.places.values():
            if place.projection == (M.Deref(),):
                # the call uses the closure's borrows here (borrowck's "later used here")
                ref_ty = self.locals[place.local].ty
                t = self.new_local(T.RefTy(ref_ty.inner, False), span)
                self.assign(M.Place(t), M.Ref(place, False), span)
        saved = {k: self.var_places.get(k) for k in env.places}
        self.var_places.update(env.places)
        saved_loops, self.loops = self.loops, []
        self.fresh_locals(c)
        try:
            for p, a in zip(c.params, args):
                self.bind_closure_param(p, a)
            out = self.lower_expr(c.body)
            # the value as it is now: a later call may change what the body read
            if isinstance(out, (M.Copy, M.Move)) and self.cur is not None:
                out = self.to_temp(M.Use(out), self.closure_ret(c), span)
            return out
        finally:
            self.loops = saved_loops
            for k, v in saved.items():
                if v is None:
                    self.var_places.pop(k, None)
                else:
                    self.var_places[k] = v

    def env_ret(self, env) -> T.Ty:
        """What calling a closure (or a function value) returns."""
        return env.ty.ret if isinstance(env, FnValueEnv) else self.closure_ret(env.closure)

    def closure_ret(self, c: ast.ClosureExpr) -> T.Ty:
        ty = self.ty(c)
        return ty.ret if isinstance(ty, T.ClosureTy) else T.ERROR

    def bind_closure_param(self, p: ast.ClosureParam, a) -> None:
        pat = p.pat
        if hasattr(a, "kind") and hasattr(a, "parts"):  # an iterator item
            self.bind_item(pat, a, p.span)
        elif isinstance(a, M.Place):
            if _plain(pat):
                var = self.r.pat_var[pat]
                self.bind_pattern(pat, self.read(a, var.ty), var.ty, p.span)
            else:
                self.bind_place(pat, a, p.span)
        else:
            ty = self.r.pat_var[pat].ty if pat in self.r.pat_var else \
                self.r.pat_ty.get(pat, T.ERROR)
            self.bind_pattern(pat, a, ty, p.span)

    def inline_closure(self, c: ast.Expr, args: list) -> M.Operand:
        """A closure argument of an `Option`/`Result` combinator, called once, here."""
        return self.call_closure(self.closure_arg_env(c), args, c.span)

    MAX_INLINE_DEPTH = 16

    def inline_user_fn(self, sig, args: list[ast.Expr], span,
                       receiver: ast.Expr | None = None) -> M.Operand:
        """A call of a function with `impl Fn` parameters: its body, inlined here with the
        closures it is given (each call site is its own instance, as rustc monomorphises
        each closure type). Arguments are evaluated left to right first."""
        fn = sig.item
        if len(self.inline_frames) >= self.MAX_INLINE_DEPTH:
            self.sink.error("OX0002", f"`{fn.name}` takes a closure and calls itself: such "
                            "recursion is not supported by oxidec", span, "called here",
                            notes=["a function with an `impl Fn` parameter is inlined at "
                                   "each call"])
            return UNIT_CONST
        values = []
        if receiver is not None:
            args = [receiver] + list(args)
        for i, (a, ty) in enumerate(zip(args, sig.params)):
            if i == 0 and receiver is not None:
                values.append(self.inline_receiver(a, ty))
            elif fn_bound_of(ty) is not None:  # `F`, `&F`, `&mut F`: typeck/closures.py
                values.append(self.closure_arg_env(a))
            else:
                values.append(self.fixed(self.lower_expr(a), ty, a.span))
        self.fresh_locals(fn.body, *(p.pat for p in fn.params))
        for p, ty, v in zip(fn.params, sig.params, values):
            var = self.r.param_var.get(p)
            if var is None:
                if not isinstance(p.pat, ast.WildPat) and fn_bound_of(ty) is None:
                    self.bind_pattern(p.pat, v, ty, p.span)  # `(a, b): (u32, u32)`
                continue
            self.var_local.pop(id(var), None)
            if fn_bound_of(ty) is not None:
                self.closure_vars[id(var)] = v
            else:
                local = self.local_for(var)
                self.assign(M.Place(local), M.Use(v), p.span)
        result = self.new_local(sig.ret, span)
        join = self.new_block()
        saved_loops, self.loops = self.loops, []
        self.inline_frames.append((result, join))
        try:
            value = self.lower_block(fn.body)
            if self.cur is not None and sig.ret != T.UNIT:
                self.assign(M.Place(result), M.Use(value), span)
            self.goto(join, span)
        finally:
            self.inline_frames.pop()
            self.loops = saved_loops
        self.cur = join
        return self.read(M.Place(result), sig.ret)

    def inline_receiver(self, a: ast.Expr, pty: T.Ty) -> M.Operand:
        """`self` of a method inlined here: auto-referenced or auto-dereferenced as the
        method's `self` asks (the reference is to a local of this body)."""
        recv_ty = self.ty(a)
        if isinstance(pty, T.RefTy) and not isinstance(recv_ty, T.RefTy):
            return self.to_temp(M.Ref(self.receiver_place(a), pty.mutable), pty, a.span)
        if isinstance(recv_ty, T.RefTy) and not isinstance(pty, T.RefTy):
            return self.read(self.receiver_place(a), pty)
        return self.lower_expr(a)

    def lower_closure_call(self, e: ast.CallExpr, var) -> M.Operand:
        """`f(a, b)` of a `let`-bound closure `f`: the arguments left to right, then the
        body inlined."""
        env = self.closure_vars.get(id(var))
        args = self.lower_in_order(e.args)
        if env is None:
            return self.unsupported(e.span, "calling this closure is")
        return self.call_closure(env, args, e.func.span)


def _plain(p: ast.Pattern) -> bool:
    return isinstance(p, ast.IdentPat) and p.sub is None and not p.by_ref
