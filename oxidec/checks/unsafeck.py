"""E0133: operations that need `unsafe`, outside an `unsafe` block or `unsafe fn`, on MIR.

Lowering records each such operation as an `UnsafeUse` statement (what it is, the source
scope it is in; see `lower/unsafe_uses.py`) and each `unsafe { }` block as a
`SourceScope` with safety "unsafe_block" (the body of an `unsafe fn` is "unsafe_fn"), as
rustc's SourceScopeData does. An operation is allowed when its scope or an enclosing one
is unsafe. The `UnsafeUse` statements are removed afterwards: nothing else reads them.
"""
from __future__ import annotations

import os

from ..diagnostics import DiagnosticSink
from ..mir import syntax as M

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
UNCHECKED = "DisjointSlice::get_unchecked_mut"


def unsafeck(program: M.Program, sink: DiagnosticSink) -> None:
    skip = bool(os.environ.get(SKIP_ENV))
    for body in program.bodies:
        uses = take_unsafe_uses(body)
        if not skip:
            check_body(body, uses, sink)


def take_unsafe_uses(body: M.Body) -> list[M.UnsafeUse]:
    """Remove the body's UnsafeUse statements and return them."""
    uses = []
    for block in body.blocks:
        uses += [s for s in block.statements if isinstance(s, M.UnsafeUse)]
        block.statements[:] = [s for s in block.statements if not isinstance(s, M.UnsafeUse)]
    return uses


def in_unsafe(body: M.Body, scope: int | None) -> bool:
    while scope is not None and scope < len(body.source_scopes):
        data = body.source_scopes[scope]
        if data.safety != "safe":
            return True
        scope = data.parent
    return False


def check_body(body: M.Body, uses: list[M.UnsafeUse], sink: DiagnosticSink) -> None:
    # in source order (outer expressions first), as a reader meets them
    for use in sorted(uses, key=lambda u: (u.span.start, -u.span.end)):
        if not in_unsafe(body, use.scope):
            report(use, sink)


def report(use: M.UnsafeUse, sink: DiagnosticSink) -> None:
    def error(what: str, label: str, note: str, help=None) -> None:
        sink.error("E0133", f"{what} is unsafe and requires unsafe function or block",
                   use.span, label, notes=[note], help=help or HELP)

    if use.kind == "deref_raw_pointer":
        error("dereference of raw pointer", "dereference of raw pointer", DEREF_NOTE)
    elif use.kind == "access_to_union_field":
        error("access to union field", "access to union field",
              "the field may not be properly initialized: using uninitialized data will cause "
              "undefined behavior")
    elif use.kind == "use_of_mutable_static":
        error("use of mutable static", "use of mutable static",
              GLOBAL_NOTE if use.callee == "global" else STATIC_NOTE)
    elif use.callee == UNCHECKED:
        error(f"call to unsafe function `{UNCHECKED}`", "call to unsafe function",
              UNCHECKED_NOTE, help=["use `get_mut(thread_index)`, which checks both, or write "
                                    "the call inside `unsafe { ... }`"])
    else:
        error(f"call to unsafe function `{use.callee}`", "call to unsafe function", CALL_NOTE)
