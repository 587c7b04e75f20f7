"""`ManagedBarrier<State, Kind, ID>` (device_api/managed_barrier.py): its written types,
`from_static`, and the methods each state has."""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..device_api.managed_barrier import ALIASES, KINDS, METHODS, STATES
from ..diagnostics import Label

MANAGED_ALIASES = ALIASES


class BarrierMixin:

    def _barrier_arg_name(self, g, allowed: tuple[str, ...], what: str) -> str | None:
        name = g.path.last.name if isinstance(g, ast.PathType) else None
        if name not in allowed:
            self.sink.error("E0412", f"expected a barrier {what} (`{'`, `'.join(allowed)}`)",
                            g.span, f"not a barrier {what}")
            return None
        return name

    def managed_barrier_from_args(self, gargs, span, kind_id=None) -> T.Ty:
        """`<State, Kind[, ID]>` (or `<State>` of an alias with its kind and id)."""
        want = 1 if kind_id else (2, 3)
        if (len(gargs) != want) if kind_id else (len(gargs) not in want):
            self.sink.error("E0107", "wrong number of generic arguments for `ManagedBarrier`",
                            span, "expected `ManagedBarrier<State, Kind[, ID]>`")
            return T.ERROR
        state = self._barrier_arg_name(gargs[0], STATES, "state")
        if kind_id:
            kind, ident = kind_id
        else:
            kind = self._barrier_arg_name(gargs[1], KINDS, "kind")
            ident = self.consts.eval_usize(self._const_arg(gargs[2])) if len(gargs) == 3 else 0
        if state is None or kind is None or ident is None:
            return T.ERROR
        return T.managed_barrier_ty(state, kind, ident)

    def managed_barrier_type(self, name: str, gargs, span) -> T.Ty:
        return self.managed_barrier_from_args(gargs, span, ALIASES.get(name))

    def call_managed_from_static(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """`ManagedBarrier::<Uninit, Kind[, ID]>::from_static(&raw mut B)` (without the
        arguments: a `GeneralBarrier` with id 0)."""
        params, _ = self.api_sig(api)
        self.check_args(e, params, "function")
        segs = e.func.path.segments
        gargs = segs[-2].generic_args if len(segs) >= 2 else ()
        if not gargs:
            return T.managed_barrier_ty("Uninit", "GeneralBarrier", 0)
        ty = self.managed_barrier_from_args(gargs, e.func.span,
                                            ALIASES.get(segs[-2].name))
        parts = T.managed_barrier_parts(ty)
        if parts is not None and parts[0] != "Uninit":
            self.sink.error("E0599", f"no function named `from_static` found for `{ty}`",
                            e.func.span, "only an `Uninit` barrier is made from a static")
            return T.ERROR
        return ty

    def managed_barrier_method(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.Ty) -> T.Ty:
        """The result of a method in the receiver's state, or E0599 in another state."""
        state, kind, ident = T.managed_barrier_parts(recv)
        need, _, result, _, _ = METHODS[api.name]
        if state != need:
            first = {"Uninit": "`init` it first", "Ready": "", "Invalidated": ""}[need]
            self.sink.error("E0599", f"no method named `{api.name}` found for `{recv}` in the "
                            "current scope", e.method_span,
                            f"`{api.name}` needs a `{need}` barrier",
                            labels=[Label(e.receiver.span, f"this barrier is `{state}`")],
                            help=first or None)
            return T.ERROR
        if result in STATES:
            return T.managed_barrier_ty(result, kind, ident)
        return self.api_ty(result)
