"""Functions as values: fn items named without a call, `fn(A) -> R` pointers, their calls.

    let f: fn(u32) -> u32 = inc;     f(3)        (s.op)(x)        apply(inc, 3)

A function used as a value gets a number (1, 2, ... in the order typeck meets them, kept
in `TypeckResults.fn_ids`) and the value is that number, of type `FnPtrTy` (a u64 below
typeck). A call through a value dispatches on the number over the functions of the same
signature that were used as values (lower/fn_values.py): no PTX indirect call, and once
constant propagation knows the number the dispatch folds to one direct call. A fn item
also fits an `F: Fn(A) -> R` parameter, as in Rust.

Not values: generic functions without their arguments, kernels, functions that take
closures (they are inlined at each call), device API functions (cuda-oxide's intrinsics
need direct calls): each is a clear error.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from .. import types as T
from ..diagnostics import Label


@dataclass(frozen=True)
class FnValueRes:
    """A path expression naming function `key` as a value (its number `id`)."""

    key: str
    id: int


class FnValueMixin:

    def fn_ptr_type(self, te: ast.FnPtrType) -> T.Ty:
        params = tuple(self.lower_type(p) for p in te.params)
        ret = self.lower_type(te.ret) if te.ret is not None else T.UNIT
        return T.FnPtrTy(params=params, ret=ret)

    def fn_value(self, e: ast.PathExpr, d, expected=None) -> T.Ty:
        """`inc` (or `S::helper`) used as a value: its number, typed as a fn pointer."""
        from ..resolve.generics import is_generic
        if d.kind == "host_fn":
            return self.call_host_fn_value(e, d)
        if is_generic(self.items, d.item):
            sig = self.generic_fn_value(e, d, expected)
            if sig is None:
                return T.ERROR
        else:
            sig = self.request_fn(d.key, e.span)
        if sig.kind == "kernel":
            self.sink.error("OX0002", "a kernel cannot be used as a function value", e.span,
                            "a kernel is launched by the host",
                            labels=[Label(d.item.name_span, "kernel defined here")])
            return T.ERROR
        from .closures import fn_bound_of
        if any(fn_bound_of(self.deep(p)) is not None for p in sig.params):
            self.unsupported(e.span, "functions that take closures used as values",
                             help=f"call `{d.name}` directly: it is inlined at each call")
            return T.ERROR
        ids = self.r.fn_ids
        if sig.name not in ids:
            ids[sig.name] = len(ids) + 1
        self.r.res[e] = FnValueRes(sig.name, ids[sig.name])
        return T.FnPtrTy(params=tuple(sig.params), ret=sig.ret)

    def generic_fn_value(self, e: ast.PathExpr, d, expected=None):
        """`add::<9>`, `identity::<u32>`: the instance the turbofish names, as a value; or,
        without one, the instance an expected `fn(A) -> R` type fixes (`let f: fn(u32) ->
        u32 = identity;`)."""
        from ..resolve.generics import impl_params, own_params
        fparams = own_params(d.item)
        gargs = e.path.segments[-1].generic_args
        exp = self.shallow(expected) if expected is not None else None
        if not gargs and isinstance(exp, T.FnPtrTy) and not impl_params(self.items, d.item) \
                and all(p.kind == "type" for p in fparams):
            env = {p.name: self.fresh("any") for p in fparams}
            ptys, ret = self.probe_signature(d.item, env)
            if None not in ptys and len(ptys) == len(exp.params) and all(
                    self.unify(a, b) for a, b in zip(ptys, exp.params)) \
                    and self.unify(ret, exp.ret):
                env = {k: self.deep(v) for k, v in env.items()}
                if not any(isinstance(v, T.InferTy) for v in env.values()):
                    return self.instantiate_fn(d, env, e.span)
        if impl_params(self.items, d.item) or not gargs:
            self.unsupported(e.span, "generic functions used as values without all their "
                             "generic arguments",
                             help=f"name the instance: `{d.name}::<..>`")
            return None
        vals = self.generic_args(fparams, gargs, e.span, "function", d)
        if vals is None:
            return None
        env = {p.name: v for p, v in zip(fparams, vals)}
        if any(isinstance(self.deep(v), T.InferTy) for v in vals if isinstance(v, T.Ty)):
            self.unsupported(e.span, "`_` in the generic arguments of a function value",
                             help=f"write every generic argument of `{d.name}`")
            return None
        return self.instantiate_fn(d, env, e.span)

    def call_host_fn_value(self, e: ast.PathExpr, d) -> T.Ty:
        self.sink.error("OX0005", f"function `{d.name}` cannot be used in device code", e.span,
                        "a host function", labels=[Label(d.item.name_span, "defined here")])
        return T.ERROR

    def api_named(self, path: ast.Path):
        """The device API function a path names (directly or through a `use`), or None."""
        from ..device_api import lookup_api
        names = path.names
        api = lookup_api(names)
        if api is None:
            full = self.resolver.imported_path(self.module, names[0])
            api = lookup_api(tuple(full) + tuple(names[1:])) if full else None
        return api

    def api_fn_value(self, e: ast.PathExpr, what: str) -> T.Ty:
        """A device API function (an intrinsic) named as a value."""
        self.sink.error("OX0002", f"the device API function `{what}` cannot be used as a "
                        "function pointer", e.span, "an intrinsic, not a function",
                        notes=["device API functions are intrinsics: they exist only as "
                               "direct calls"],
                        help="wrap the call in a function of your own (`fn f() -> u32 { .. }`) "
                             "and use that as the value")
        return T.ERROR

    def check_fn_ptr_call(self, e: ast.CallExpr, callee: T.FnPtrTy) -> T.Ty:
        """`f(a, b)` through a function pointer value."""
        self.check_args(e, callee.params, "function")
        self.r.calls[e] = ("fn_ptr", callee)
        return callee.ret


__all__ = ["FnValueMixin", "FnValueRes"]
