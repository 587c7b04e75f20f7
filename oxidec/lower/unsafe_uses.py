"""The operations that need `unsafe`, as lowering meets them: each becomes an `UnsafeUse`
statement in the current source scope, which `checks/unsafeck.py` checks on the MIR.

    *p                          dereference of a raw pointer (read or write)
    TILE[i], &mut TILE[i]       use of a `static mut` (every `SharedArray` is one)
    out.get_unchecked_mut(i)    call to an unsafe method (no bounds check, no ownership)
    p.add(n)                    call to an unsafe method (`<*mut T>::add`)
    f(..) with `unsafe fn f`    call to an unsafe function
    DeviceAtomicU32::from_ptr(p)    an API function or method marked unsafe in the registry
    u.f                         read of a union field

They are recorded here because most of them leave no trace of their own in MIR: API
calls are lowered inline, and a raw pointer dereference is a projection like any other.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from ..typeck import FnSig, StaticRes
from ..typeck.pointers import UNSAFE_CORE_FNS, UNSAFE_PTR_METHODS


class UnsafeLowering:

    def note_unsafe_use(self, e: ast.Expr) -> None:
        use = self.unsafe_use(e)
        if use is not None:
            kind, callee = use
            self.push(M.UnsafeUse(kind, callee, self.scope, e.span))

    def unsafe_use(self, e: ast.Expr) -> tuple[str, str | None] | None:
        r = self.r
        if isinstance(e, ast.UnaryExpr) and e.op == "*":
            if isinstance(r.expr_ty.get(e.operand), T.PtrTy):
                return "deref_raw_pointer", None
        elif isinstance(e, ast.PathExpr) and isinstance(r.res.get(e), StaticRes):
            res = r.res[e]
            if e in getattr(self, "raw_ref_bases", ()):
                return None  # `&raw mut STATIC[..]` reads nothing: safe since Rust 1.82
            if res.mutable:  # a plain `static` device global is read-only: no unsafe
                return "use_of_mutable_static", "global" if res.space == "global" else None
        elif isinstance(e, ast.FieldExpr) and e in r.union_views:
            return "access_to_union_field", None  # a read (a write is safe: unions.py)
        elif isinstance(e, ast.MethodCallExpr):
            target = r.methods.get(e, ("", ""))
            if isinstance(target, ApiFn):  # a method of the device API: its row says
                return ("call_unsafe_fn", target.path) if target.unsafe else None
            kind, name = target
            if kind == "ptr" and name in UNSAFE_PTR_METHODS:
                return "call_unsafe_fn", f"<{r.expr_ty.get(e.receiver)}>::{name}"
            if kind == "uninit" and name == "assume_init":
                return "call_unsafe_fn", f"{r.expr_ty.get(e.receiver)}::{name}"
            if kind == "user" and r.fn_sigs[name].is_unsafe:  # `unsafe fn` method
                return "call_unsafe_fn", name.replace("$", "::")
        elif isinstance(e, ast.CallExpr):
            target = r.calls.get(e)
            if isinstance(target, FnSig) and target.is_unsafe:
                return "call_unsafe_fn", target.name
            if isinstance(target, ApiFn) and target.unsafe:
                return "call_unsafe_fn", target.path
            if isinstance(target, tuple) and target[0] == "core" and \
                    target[1] in UNSAFE_CORE_FNS:
                return "call_unsafe_fn", f"core::{target[1]}"
        return None
