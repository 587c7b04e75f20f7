"""E0133: operations that need `unsafe`, outside an `unsafe` block or `unsafe fn`.

    *p                          dereference of a raw pointer (read or write)
    TILE[i], &mut TILE[i]       use of a `static mut` (every `SharedArray` is one)
    out.get_unchecked_mut(i)    call to an unsafe method (no bounds check, no ownership)
    p.add(n)                    call to an unsafe method (`<*mut T>::add`)
    f(..) with `unsafe fn f`    call to an unsafe function
    DeviceAtomicU32::from_ptr(p)    an API function marked unsafe in device_api.py

`DynamicSharedArray::<T>::get()` itself is safe, as making a raw pointer is in Rust: every
access to dynamic shared memory goes through that `*mut T`, so it is a raw-pointer
dereference (or a call to `ptr.add`), which is what needs `unsafe`.

Why on the AST and not on MIR like the rest of the checker: MIR forgets `unsafe` blocks
(lowering flattens them into the enclosing code, and an `unsafe` block inside a loop or a
condition has no one place in the CFG), while the AST has exactly the lexical scopes that
Rust's rule is about, and typeck's side tables say what each expression is. Recording an
`unsafe` flag on every MIR statement would work too, but it would put a field on every
statement for one check and make each pass responsible for keeping it.
"""
from __future__ import annotations

import dataclasses
import os

from . import ast
from . import types as T
from .device_api import ApiFn
from .diagnostics import DiagnosticSink
from .resolve import ItemTable
from .typeck import FnSig, StaticRes, TypeckResults

SKIP_ENV = "OXIDEC_SKIP_BORROWCK"

DEREF_NOTE = ("raw pointers may be null, dangling or unaligned; they can violate aliasing "
              "rules and cause data races: all of these are undefined behavior")
STATIC_NOTE = ("a `SharedArray` is shared by all threads of the block: accesses that "
               "`thread::sync_threads()` does not order are data races, which are undefined "
               "behavior")
GLOBAL_NOTE = ("mutable statics can be mutated by multiple threads: aliasing violations or data "
               "races will cause undefined behavior")
UNCHECKED_NOTE = ("`get_unchecked_mut` skips the bounds check and the one-element-per-thread "
                  "guarantee: an index out of range, or two threads with the same index, is "
                  "undefined behavior")
CALL_NOTE = "consult the function's documentation for information on how to avoid undefined " \
            "behavior"
HELP = "put the operation in an `unsafe { ... }` block, after making sure it is sound " \
       "(a `// SAFETY:` comment saying why is customary)"


def unsafeck(items: ItemTable, typed: TypeckResults, sink: DiagnosticSink) -> None:
    if os.environ.get(SKIP_ENV):
        return
    for sig in typed.fn_sigs.values():  # what the kernels reach (typeck checked those)
        fn = sig.item
        Walker(typed, sink).walk(fn.body, fn.is_unsafe)


class Walker:
    def __init__(self, r: TypeckResults, sink: DiagnosticSink):
        self.r = r
        self.sink = sink

    def walk(self, node, in_unsafe: bool) -> None:
        if isinstance(node, (list, tuple)):
            for x in node:
                self.walk(x, in_unsafe)
            return
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return
        if isinstance(node, ast.ItemStmt):
            return  # `static mut TILE: SharedArray<..> = SharedArray::UNINIT;` is no access
        if isinstance(node, ast.BlockExpr) and node.unsafe:
            in_unsafe = True
        elif isinstance(node, ast.Expr) and not in_unsafe:
            self.check(node)
        for f in dataclasses.fields(node):
            if f.name == "span":
                continue
            child = getattr(node, f.name)
            if isinstance(child, (ast.Node, list, tuple)):
                self.walk(child, in_unsafe)

    def check(self, e: ast.Expr) -> None:
        if isinstance(e, ast.UnaryExpr) and e.op == "*":
            ty = self.r.expr_ty.get(e.operand)
            if isinstance(ty, T.PtrTy):
                self.error("dereference of raw pointer", e.span, "dereference of raw pointer",
                           DEREF_NOTE)
        elif isinstance(e, ast.PathExpr) and isinstance(self.r.res.get(e), StaticRes) \
                and self.r.res[e].mutable:
            note = STATIC_NOTE if self.r.res[e].space == "shared" else GLOBAL_NOTE
            self.error("use of mutable static", e.span, "use of mutable static", note)
        elif isinstance(e, ast.MethodCallExpr):
            kind, name = self.r.methods.get(e, ("", ""))
            if kind == "disjoint" and name == "get_unchecked_mut":
                self.error("call to unsafe function `DisjointSlice::get_unchecked_mut`",
                           e.span, "call to unsafe function", UNCHECKED_NOTE,
                           help=["use `get_mut(thread_index)`, which checks both, or write "
                                 "the call inside `unsafe { ... }`"])
            elif kind == "ptr" and name in ("add", "offset", "sub"):
                recv = self.r.expr_ty.get(e.receiver)
                self.error(f"call to unsafe function `<{recv}>::{name}`", e.span,
                           "call to unsafe function", CALL_NOTE)
        elif isinstance(e, ast.CallExpr):
            target = self.r.calls.get(e)
            if isinstance(target, FnSig) and target.is_unsafe:
                self.error(f"call to unsafe function `{target.name}`", e.span,
                           "call to unsafe function", CALL_NOTE)
            elif isinstance(target, ApiFn) and target.unsafe:
                self.error(f"call to unsafe function `{target.path}`", e.span,
                           "call to unsafe function", CALL_NOTE)

    def error(self, what: str, span, label: str, note: str, help=None) -> None:
        self.sink.error("E0133", f"{what} is unsafe and requires unsafe function or block", span,
                        label, notes=[note], help=help or HELP)
