"""Calls of the file's own functions and methods; struct constructors and `..base`.

Locals live in registers, which have no address, so a reference to an aggregate
(`&S`, `&mut S`, `&[T; N]` ...) cannot be passed to a function. Such a parameter is passed
by value instead, and a `&mut` one is also copied back out: the callee returns the final
value of each `&mut` aggregate parameter after its own result, and the caller stores them
back through the place it borrowed. Rust's borrow rules make this exact: nothing else can
read or write the place while the call holds the `&mut` (and nothing writes it while a
`&` is held). This is how `&self` / `&mut self` methods on a local struct work.

Inside such a callee the parameter's local holds the value itself; every `*p` / auto-deref
of it is the local (`elide_derefs`, run on the finished body).

    call_expr: path_expr "(" args ")"
    method_call_expr: expr "." IDENT "(" args ")"      (inherent methods of a struct)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..typeck import FnSig
from .builder import UNIT_CONST

AGGREGATES = (T.StructTy, T.TupleTy, T.ArrayTy)


def _holds_ref(ty: T.Ty) -> bool:
    if isinstance(ty, T.RefTy):
        return True
    if isinstance(ty, T.TupleTy):
        return any(_holds_ref(t) for t in ty.elems)
    if isinstance(ty, T.EnumTy):
        return any(_holds_ref(t) for v in ty.variants for _, t in v.fields)
    return False


def byval_ref(ty: T.Ty) -> bool:
    """A reference parameter passed by value (see the module docstring)."""
    return isinstance(ty, T.RefTy) and isinstance(ty.inner, AGGREGATES)


def holds_closure(ty: T.Ty) -> bool:
    """Whether a value of `ty` is or holds a closure (an `impl Fn` parameter, a closure
    type, a struct with a closure field, a reference to one): a function taking one is
    inlined at each call (closures.py)."""
    if isinstance(ty, (T.ClosureTy, T.FnBoundTy)):
        return True
    if isinstance(ty, (T.RefTy, T.PtrTy)):
        return holds_closure(ty.inner)
    if isinstance(ty, T.TupleTy):
        return any(holds_closure(t) for t in ty.elems)
    if isinstance(ty, T.StructTy):
        return any(holds_closure(t) for _, t in ty.fields)
    if isinstance(ty, T.ArrayTy):
        return holds_closure(ty.elem)
    return False


def returns_inner_ref(sig: FnSig) -> bool:
    """A fn that takes a `&` aggregate by value and returns a reference (`fn first(p: &Pair)
    -> &f32 { &p.a[0] }`): a reference into its copy would dangle, so it is inlined at each
    call instead (lower/closures.py), where its parameter is the caller's reference."""
    return sig.kind != "kernel" and any(byval_ref(t) for t in sig.params) \
        and _holds_ref(sig.ret)


def out_types(sig: FnSig) -> tuple[list[T.Ty], T.Ty]:
    """(the values the callee returns, the body's return type) for a fn with `&mut`
    aggregate parameters: its own result (unless `()`) then each parameter's final value."""
    outs = [] if sig.ret == T.UNIT else [sig.ret]
    outs += [t.inner for t in sig.params if byval_ref(t) and t.mutable]
    if not any(byval_ref(t) and t.mutable for t in sig.params) or sig.kind == "kernel":
        return [sig.ret], sig.ret
    return outs, outs[0] if len(outs) == 1 else T.TupleTy(tuple(outs))


class UserCallLowering:

    # -- callee side --------------------------------------------------------------
    def check_returned_ref(self, fn: ast.FnItem) -> None:
        """A reference result of a fn with a by-value reference parameter: it could only
        point into the callee's copy (`fn first(&mut self) -> &mut u32 { &mut self.a[0] }`),
        so it is an unsupported form, not a borrow error."""
        if self.sig.kind == "kernel" or not any(byval_ref(t) for t in self.sig.params):
            return
        if _holds_ref(self.sig.ret):
            span = fn.ret.span if fn.ret is not None else fn.name_span
            self.sink.error(
                "OX0002", "returning a reference from a function that takes a reference to "
                "an aggregate is not supported by oxidec yet", span, "returns a reference",
                notes=["a `&`/`&mut` struct, tuple or array parameter is passed by value (and "
                       "a `&mut` one copied back): a reference into it would point into the "
                       "callee's copy"],
                help="return an index or the value, and borrow the element in the caller")

    def param_local_ty(self, ty: T.Ty) -> T.Ty:
        return ty.inner if self.sig.kind != "kernel" and byval_ref(ty) else ty

    def copy_out(self, span) -> None:
        """At the return: pack the result and the `&mut` parameters' values into `_0`."""
        outs, body_ret = out_types(self.sig)
        if body_ret is self.sig.ret or body_ret == self.sig.ret and len(outs) == 1 \
                and self.sig.ret != T.UNIT:
            return
        ops = []
        if self.sig.ret != T.UNIT:
            ops.append(M.Copy(M.Place(self.user_ret)) if T.is_copy(self.sig.ret)
                       else M.Move(M.Place(self.user_ret)))
        for i, t in enumerate(self.sig.params):
            if byval_ref(t) and t.mutable:
                ops.append(self.read(M.Place(i + 1), t.inner))
        rv = M.Use(ops[0]) if len(ops) == 1 else M.Aggregate(body_ret, tuple(ops))
        self.assign(M.Place(0), rv, span)

    def elide_derefs(self, body: M.Body) -> M.Body:
        """`(*_1).x` -> `_1.x` for the by-value reference parameters."""
        byval = {i + 1 for i, t in enumerate(self.sig.params) if byval_ref(t)}
        if byval and self.sig.kind != "kernel":
            from ..mir.visit import rewrite

            def fix(p: M.Place, is_def: bool) -> M.Place:
                if p.local in byval and p.projection and isinstance(p.projection[0], M.Deref):
                    return M.Place(p.local, p.projection[1:])
                return p
            rewrite(body, place_fn=fix)
        return body

    # -- caller side --------------------------------------------------------------
    def ref_arg_place(self, arg: ast.Expr) -> M.Place:
        """The place an argument of reference type points to: `&x.f` -> x.f, `r` -> *r."""
        if isinstance(arg, ast.RefExpr):
            return self.lower_place(arg.operand)
        ty = self.ty(arg)
        op = self.lower_expr(arg)
        return M.Place(self.operand_local(op, ty, arg.span), (M.Deref(),))

    def receiver_place(self, recv: ast.Expr) -> M.Place:
        ty = self.ty(recv)
        if isinstance(ty, T.RefTy):
            op = self.lower_expr(recv)
            place = M.Place(self.operand_local(op, ty, recv.span), (M.Deref(),))
            ty = ty.inner
            while isinstance(ty, T.RefTy):  # `&&S`
                place = M.Place(self.operand_local(self.read(place, ty), ty, recv.span),
                                (M.Deref(),))
                ty = ty.inner
            return place
        return self.lower_place(recv)

    def call_user_fn(self, sig: FnSig, args: list[ast.Expr], span,
                     receiver: ast.Expr | None = None) -> M.Operand:
        """Lower the arguments (the receiver, if any, is argument 0) and call `sig`."""
        if any(holds_closure(t) for t in sig.params) or returns_inner_ref(sig):
            return self.inline_user_fn(sig, args, span, receiver)  # lower/closures.py
        ops, backs = [], []
        exprs = ([receiver] if receiver is not None else []) + list(args)
        for i, (a, pty) in enumerate(zip(exprs, sig.params)):
            if i:  # the arguments before this one keep the values they had (order.py)
                prev = sig.params[i - 1]
                prev_ty = prev.inner if sig.kind != "kernel" and byval_ref(prev) else prev
                ops[-1] = self.freeze(ops[-1], prev_ty, exprs[i - 1].span, exprs[i:])
            if sig.kind != "kernel" and byval_ref(pty):
                place = self.receiver_place(a) if (i == 0 and receiver is not None) \
                    else self.ref_arg_place(a)
                ops.append(M.Copy(place))
                if pty.mutable:
                    backs.append((place, pty.inner))
            elif i == 0 and receiver is not None:
                recv_ty = self.ty(a)
                if isinstance(recv_ty, T.RefTy) and not isinstance(pty, T.RefTy):
                    ops.append(self.read(self.receiver_place(a), pty))  # `self` by value
                elif isinstance(pty, T.RefTy) and not isinstance(recv_ty, T.RefTy):
                    # `x.m()` with `&self` on a scalar: auto-ref (rustc's autoref step)
                    ops.append(self.to_temp(M.Ref(self.receiver_place(a), pty.mutable), pty,
                                            a.span))
                else:
                    ops.append(self.lower_expr(a))
            else:
                ops.append(self.lower_expr(a))
        outs, body_ret = out_types(sig)
        dest = self.temp(body_ret, span)
        nxt = self.new_block()
        self.terminate(M.Call(sig.name, tuple(ops), M.Place(dest), nxt, span))
        self.cur = nxt
        if isinstance(sig.ret, T.NeverTy):
            self.terminate(M.Unreachable(span))
            return UNIT_CONST
        if not backs:
            return self.read(M.Place(dest), sig.ret)
        has_ret = sig.ret != T.UNIT
        single = len(outs) == 1
        for k, (place, ty) in enumerate(backs):
            src = M.Place(dest) if single else M.Place(dest, (M.Field(k + has_ret),))
            self.assign(place, M.Use(self.read(src, ty)), span)
        if not has_ret:
            return UNIT_CONST
        return self.read(M.Place(dest, (M.Field(0),)), sig.ret)

    def lower_user_method(self, e: ast.MethodCallExpr, key: str) -> M.Operand:
        sig = self.r.fn_sigs[key]
        return self.call_user_fn(sig, list(e.args), e.span, receiver=e.receiver)

    # -- constructors ---------------------------------------------------------------
    def lower_ctor(self, e: ast.CallExpr, ty: T.StructTy) -> M.Operand:
        ops = tuple(self.lower_expr(a) for a in e.args)
        return self.to_temp(M.Aggregate(ty, ops), ty, e.span)

    def lower_struct_update(self, e: ast.StructExpr, ty: T.StructTy,
                            values: dict[str, M.Operand]) -> M.Operand:
        """`S { x: 1, ..base }`: the fields not written are the base's (base evaluated after
        the written fields, as in Rust)."""
        base = self.lower_place(e.base)
        ops = []
        for i, (name, fty) in enumerate(ty.fields):
            if name in values:
                ops.append(values[name])
            else:
                ops.append(self.read(base.project(M.Field(i)), fty))
        return self.to_temp(M.Aggregate(ty, tuple(ops)), ty, e.span)
