"""Calls of the file's own functions, associated functions, tuple-struct constructors and
inherent methods (`impl S { fn m(&self) }`), rustc-style: the receiver is auto-dereferenced
to the struct, then auto-referenced as the method's `self` asks.

    call_expr: path_expr "(" args ")"          `f(x)`, `geo::f(x)`, `S::new(x)`, `P(a, b)`
    method_call_expr: expr "." IDENT "(" args ")"   `s.norm()`, `p.step(dt)`
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label
from ..resolve.generics import is_generic, own_params
from ..resolve.traits import BLANKET
from .results import LocalRes, nearest


class UserMethodMixin:

    def call_item(self, e: ast.CallExpr, res, expected) -> T.Ty:
        """A call whose callee path names a local item (`res` from resolve_value_path)."""
        d = res.def_
        if res.assoc is not None:
            member = self.items.assoc.get((d.key, res.assoc))
            if member is None or member.kind != "fn":
                for a in e.args:
                    self.check_expr(a)
                self.sink.error("E0599", f"no function or associated item named "
                                f"`{res.assoc}` found for struct `{d.name}` in the current "
                                "scope", e.func.path.last.span,
                                f"function or associated item not found in `{d.name}`",
                                help=self._assoc_hint(d, res.assoc))
                return T.ERROR
            if is_generic(self.items, member.item):
                return self.call_generic_path(e, member, expected)
            self.no_generic_args(e.func.path.last, member)
            return self.call_fn(e, self.request_fn(member.key, e.func.span))
        if d.kind == "fn":
            if is_generic(self.items, d.item):
                return self.call_generic_path(e, d, expected)
            self.no_generic_args(e.func.path.last, d)
            return self.call_fn(e, self.request_fn(d.key, e.func.span))
        if d.kind == "host_fn":
            return self.call_host_fn(e, d.item)
        if d.kind == "struct" and d.item.shape == "tuple":
            return self.call_tuple_ctor(e, d, expected)
        for a in e.args:
            self.check_expr(a)
        what = {"struct": "struct", "const": "constant", "static": "static"}.get(d.kind, d.kind)
        self.sink.error("E0618", f"expected function, found {what} `{d.name}`", e.func.span,
                        "call expression requires function",
                        labels=[Label(d.item.name_span, f"`{d.name}` defined here")])
        return T.ERROR

    def call_tuple_ctor(self, e: ast.CallExpr, d, expected=None) -> T.Ty:
        """`P(a, b)`: a tuple struct's constructor."""
        if own_params(d.item):
            return self.generic_tuple_ctor(e, d, expected)
        ty = self.adt_ty(d.key)
        if not isinstance(ty, T.StructTy):
            return T.ERROR
        self.r.calls[e] = ("ctor", ty)
        params = tuple(t for _, t in ty.fields)
        self.check_args(e, params, "struct", d.item.name_span)
        return ty

    def user_method(self, e: ast.MethodCallExpr, recv: T.Ty, base: T.StructTy,
                    d=None) -> T.Ty | None:
        """`recv.m(args)` for an inherent (or trait) method of struct `base`; None when it
        has none. `d`: the method's Def when the caller found it (typeck/traits.py)."""
        env = None
        if d is None:
            d = self.assoc_for(base.name, e.method)
        if d is None:  # a blanket impl's (typeck/instance_impls.py)
            d, env = self.blanket_method(base, e.method) or (None, None)
        if d is None or d.kind != "fn":
            return None
        if d.impl is not None and d.impl.self_key == BLANKET:
            env = self.blanket_env(d.impl, base)
        fn = d.item
        if fn.self_param is None:
            for a in e.args:
                self.check_expr(a)
            self.sink.error("E0599", f"no method named `{e.method}` found for struct `{base}` "
                            "in the current scope", e.method_span,
                            "this is an associated function, not a method",
                            labels=[Label(fn.name_span, f"the method is found in `{base}`, but "
                                          "it is an associated function")],
                            notes=["found the following associated functions; to be used as "
                                   "methods, functions must have a `self` parameter"],
                            help=f"use associated function syntax instead: `{base}::{e.method}"
                                 f"({'..' if fn.params else ''})`")
            return T.ERROR
        if is_generic(self.items, fn):
            sig = self.call_generic(e, d, e.args, None, e.generic_args,
                                    env if env is not None else self.impl_env(fn, base.name),
                                    e.method_span, skip_self=True)
            if sig is None:
                return T.ERROR
            self.r.methods[e] = ("user", sig.name)
            if sig.params and isinstance(sig.params[0], T.RefTy) and sig.params[0].mutable:
                self.check_mut_receiver(e, recv)
            return sig.ret
        if e.generic_args:
            self.generic_args((), e.generic_args, e.method_span, "method", d)  # E0107
        sig = self.request_fn(d.key, e.method_span)
        self_ty = sig.params[0] if sig.params else T.ERROR
        if isinstance(self_ty, T.RefTy) and self_ty.mutable:
            self.check_mut_receiver(e, recv)
        self.r.methods[e] = ("user", d.key)
        fake = ast.CallExpr(func=ast.PathExpr(path=ast.Path(segments=(), span=e.method_span),
                                              span=e.method_span), args=e.args, span=e.span)
        self.check_args(fake, sig.params[1:], "method", fn.name_span)
        return sig.ret

    def check_mut_receiver(self, e: ast.MethodCallExpr, recv: T.Ty) -> None:
        """`x.m()` with `&mut self` borrows `x` mutably: x must be a mutable place (or a
        `&mut` reference)."""
        recv = self.shallow(recv)
        if isinstance(recv, T.RefTy):
            if not recv.mutable:
                self.sink.error("E0596", f"cannot borrow `*{e.receiver.span.text()}` as "
                                "mutable, as it is behind a `&` reference", e.receiver.span,
                                f"`{e.receiver.span.text()}` is a `&` reference, so the data "
                                "it refers to cannot be borrowed as mutable")
            return
        root = e.receiver
        while isinstance(root, (ast.FieldExpr, ast.IndexExpr)):
            base_ty = self.shallow(self.r.expr_ty.get(root.base))
            if isinstance(base_ty, T.RefTy):
                if not base_ty.mutable:
                    self.sink.error("E0596", f"cannot borrow `{e.receiver.span.text()}` as "
                                    "mutable, as it is behind a `&` reference",
                                    e.receiver.span, "cannot borrow as mutable")
                return
            root = root.base
        if isinstance(root, ast.PathExpr):
            res = self.r.res.get(root)
            if isinstance(res, LocalRes) and not res.var.mutable:
                name = res.var.name
                self.sink.error("E0596", f"cannot borrow `{name}` as mutable, as it is not "
                                "declared as mutable", e.receiver.span,
                                "cannot borrow as mutable",
                                labels=[Label(res.var.span, f"help: consider changing this to "
                                              f"be mutable: `mut {name}`")])
            elif not isinstance(res, LocalRes) and res is not None:
                self.sink.error("E0596", f"cannot borrow `{e.receiver.span.text()}` as "
                                "mutable", e.receiver.span, "cannot borrow as mutable")
        elif not self.is_place(e.receiver):
            pass  # a temporary: `S::new().bump()` is fine in Rust

    def method_candidates(self, base: T.StructTy) -> list[str]:
        return [n for (k, n), d in self.items.assoc.items() if k == self.adt_base(base.name)
                and d.kind == "fn" and d.item.self_param is not None
                and self.assoc_for(base.name, n) is not None]
