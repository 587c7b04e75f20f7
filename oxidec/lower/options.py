"""Methods of `Option<T>` and `Result<T, E>`, lowered as the match they stand for; a closure
argument (`|x| x * 2.0`) is inlined at the call, its parameters bound to the payload.

    opt.unwrap()        match opt { Some(x) => x, None => panic!(..) }
    opt.map(|x| f(x))   match opt { Some(x) => Some(f(x)), None => None }

`unwrap`/`expect` on `None`/`Err` print rustc's panic message through `printf` and trap.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span


class OptionLowering:

    def lower_option_method(self, e: ast.MethodCallExpr, kind: str, name: str) -> M.Operand:
        span = e.span
        rty = self.ty(e.receiver)
        ty = rty
        place = self.lower_place(e.receiver)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        out_ty = self.ty(e)
        good = 1 if kind == "option" else 0  # the variant holding the payload
        disc = self.to_temp(M.Discriminant(place), ty.tag, span)
        is_good = disc if good == 1 else self.to_temp(M.UnaryOp("not", disc), T.BOOL, span)
        if name in ("is_some", "is_ok"):
            return is_good
        if name in ("is_none", "is_err"):
            return self.to_temp(M.UnaryOp("not", is_good), T.BOOL, span)
        payload = place.project(M.Field(0, good))
        other = place.project(M.Field(0, 1 - good)) if kind == "result" else None
        args = e.args
        result = M.Place(self.temp(out_ty, span))
        # an eager argument (`unwrap_or(d)`, `ok_or(e)`, `map_or(d, f)`) is evaluated before
        # the call, as Rust does, in the block that branches: lowered after the branch it
        # landed in an unreachable block and the value read was never written
        eager = self.lower_expr(args[0]) if name in ("unwrap_or", "ok_or", "map_or") else None
        yes, no, join = self.new_block(), self.new_block(), self.new_block()
        self.switch_bool(is_good, yes, no, span)

        def finish(bb: int, value_fn) -> None:
            self.cur = bb
            value = value_fn()
            if self.cur is not None and value is not None:
                self.assign(result, value, span)
            self.goto(join, span)

        inner = ty.args[0]
        some = lambda: M.Use(self.read(payload, inner))  # noqa: E731
        if name in ("unwrap", "expect"):
            finish(yes, some)
            self.cur = no
            if name == "expect":
                msg = args[0].value if args and isinstance(args[0], ast.LitExpr) else ""
            else:
                msg = (f"called `Option::unwrap()` on a `None` value" if kind == "option" else
                       "called `Result::unwrap()` on an `Err` value")
            self.panic(msg, span)
        elif name == "unwrap_or":
            finish(yes, some)
            finish(no, lambda: M.Use(eager))
        elif name == "unwrap_or_default":
            finish(yes, some)
            finish(no, lambda: M.Use(self.default_of(inner, span)))
        elif name == "unwrap_or_else":
            finish(yes, some)
            params = [] if kind == "option" else [other]
            finish(no, lambda: M.Use(self.inline_closure(args[0], params)))
        elif name in ("copied", "cloned"):
            finish(yes, lambda: M.Aggregate(out_ty, (self.read(payload.project(M.Deref()),
                                                               out_ty.args[0]),), 1))
            finish(no, lambda: M.Aggregate(out_ty, (), 0))
        elif name == "ok":
            finish(yes, lambda: M.Aggregate(out_ty, (self.read(payload, inner),), 1))
            finish(no, lambda: M.Aggregate(out_ty, (), 0))
        elif name == "err":
            finish(yes, lambda: M.Aggregate(out_ty, (), 0))
            finish(no, lambda: M.Aggregate(out_ty, (self.read(other, ty.args[1]),), 1))
        elif name == "ok_or":
            finish(yes, lambda: M.Aggregate(out_ty, (self.read(payload, inner),), 0))
            finish(no, lambda: M.Aggregate(out_ty, (eager,), 1))
        elif name == "map":
            finish(yes, lambda: M.Aggregate(out_ty, (self.inline_closure(args[0], [payload]),),
                                            good))
            if kind == "option":
                finish(no, lambda: M.Aggregate(out_ty, (), 0))
            else:
                finish(no, lambda: M.Aggregate(out_ty, (self.read(other, ty.args[1]),), 1))
        elif name == "map_err":
            finish(yes, lambda: M.Aggregate(out_ty, (self.read(payload, inner),), 0))
            finish(no, lambda: M.Aggregate(out_ty, (self.inline_closure(args[0], [other]),), 1))
        elif name == "map_or":
            finish(yes, lambda: M.Use(self.inline_closure(args[1], [payload])))
            finish(no, lambda: M.Use(eager))
        elif name == "and_then":
            finish(yes, lambda: M.Use(self.inline_closure(args[0], [payload])))
            if kind == "option":
                finish(no, lambda: M.Aggregate(out_ty, (), 0))
            else:
                finish(no, lambda: M.Aggregate(out_ty, (self.read(other, ty.args[1]),), 1))
        elif name == "or_else":
            finish(yes, lambda: M.Use(self.read(place, ty)))
            params = [] if kind == "option" else [other]
            finish(no, lambda: M.Use(self.inline_closure(args[0], params)))
        elif name == "is_some_and":
            finish(yes, lambda: M.Use(self.inline_closure(args[0], [payload])))
            finish(no, lambda: M.Use(M.Constant(False, T.BOOL)))
        elif name == "filter":
            keep, drop = self.new_block(), self.new_block()
            self.cur = yes
            ref = self.to_temp(M.Ref(payload, False), T.RefTy(inner, False), span)
            cond = self.inline_closure(args[0], [ref])
            self.switch_bool(cond, keep, drop, span)
            finish(keep, lambda: M.Use(self.read(place, ty)))
            finish(drop, lambda: M.Aggregate(out_ty, (), 0))
            finish(no, lambda: M.Aggregate(out_ty, (), 0))
        else:
            return self.unsupported(span, f"`{name}` is")
        self.cur = join
        return self.read(result, out_ty)

    def default_of(self, ty: T.Ty, span: Span) -> M.Operand:
        if isinstance(ty, (T.IntTy, T.FloatTy, T.BoolTy)):
            return self.zero_of(ty)
        if isinstance(ty, T.TupleTy):
            return self.to_temp(M.Aggregate(ty, tuple(self.default_of(t, span)
                                                      for t in ty.elems)), ty, span)
        if isinstance(ty, T.ArrayTy):
            return self.to_temp(M.Repeat(self.default_of(ty.elem, span), ty.length), ty, span)
        if T.is_option(ty):
            return self.to_temp(M.Aggregate(ty, (), 0), ty, span)
        return self.unsupported(span, f"`Default` for `{ty}` is")

    def lower_bool_then(self, e: ast.MethodCallExpr, name: str, ty: T.EnumTy) -> M.Operand:
        """`b.then_some(v)` (v evaluated either way, as an argument is) and `b.then(f)` (f
        called only when b holds): the Option's tag is b itself."""
        cond = self.lower_expr(e.receiver)
        inner = ty.args[0]
        if name == "then_some":
            value = self.lower_expr(e.args[0])
            return self.to_temp(M.Aggregate(ty, (cond, value), None), ty, e.span)
        result = M.Place(self.new_local(ty, e.span))
        yes, no, join = self.new_block(), self.new_block(), self.new_block()
        self.switch_bool(cond, yes, no, e.span)
        self.cur = yes
        value = self.inline_closure(e.args[0], [])
        if self.cur is not None:
            self.assign(result, M.Aggregate(ty, (value,), 1), e.span)
            self.goto(join, e.span)
        self.cur = no
        self.assign(result, M.Aggregate(ty, (), 0), e.span)
        self.goto(join, e.span)
        self.cur = join
        return self.read(result, ty)

    def panic(self, message: str, span: Span, names_trap: bool = False) -> None:
        """Rust's panic: the message through `printf`, then a trap (`names_trap`: a failed
        assertion carrying the message, as `panic!` has, so the simulator's trap names it)."""
        where = f"{span.file.name}:{span.line}:{span.col}"
        fmt = f"panicked at {where}:\n{message}\n".replace("%", "%%")
        if fmt not in self.strings:
            self.strings.append(fmt)
        self.push(M.Effect("printf", (M.Constant(self.strings.index(fmt), T.U32),), span))
        if names_trap:
            dead = self.new_block()
            self.terminate(M.Assert(M.Constant(False, T.BOOL), True, message, dead, span))
            self.cur = dead
        self.terminate(M.Unreachable(span))

