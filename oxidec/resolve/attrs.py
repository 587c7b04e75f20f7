"""Which attributes oxidec understands, on which items; unknown ones are errors."""
from __future__ import annotations


from .. import ast
from ..diagnostics import DiagnosticSink
from ..syntax.stmt_attrs import cfg_removes

# Attributes every item may carry: lint levels (oxidec's own lints read them, lints.py) and
# `cfg` (an item whose predicate is false never gets here: prescan removed it)
COMMON_ATTRS = {"allow", "expect", "warn", "deny", "forbid", "doc", "cfg"}
# Attributes oxidec understands, by the item kind they may appear on.
FN_ATTRS = COMMON_ATTRS | {"kernel", "device", "launch_bounds", "launch_contract",
                           "cluster_launch", "cooperative_launch", "inline", "must_use", "cold"}
MOD_ATTRS = COMMON_ATTRS | {"cuda_module"}
STRUCT_ATTRS = COMMON_ATTRS | {"derive", "repr"}
OTHER_ATTRS = COMMON_ATTRS
STATIC_ATTRS = OTHER_ATTRS | {"constant"}  # `#[constant] static X: ConstantMemory<T>`
KNOWN_ATTRS = FN_ATTRS | MOD_ATTRS | STRUCT_ATTRS | STATIC_ATTRS | {"unroll"}


def attr(item: ast.Item, name: str) -> ast.Attribute | None:
    for a in item.attrs:
        if a.name == name:
            return a
    return None


def check_attrs(item: ast.Item, allowed: set[str], sink: DiagnosticSink) -> None:
    for a in item.attrs:
        if a.name == "cfg":
            check_cfg(a, sink)
        if a.name in allowed:
            continue
        if a.name == "custom_mir":
            sink.error("OX0002", "`#[custom_mir]` functions are not supported by oxidec",
                       a.span, "a body in rustc's MIR dialect", notes=[CUSTOM_MIR_NOTE],
                       help="write the function in ordinary Rust")
        elif a.name in KNOWN_ATTRS:
            sink.error("OX0003", f"attribute `#[{a.name}]` is not allowed here", a.span,
                       "not allowed on this item")
        else:
            hint = nearest(a.name, sorted(KNOWN_ATTRS))
            sink.error("OX0003", f"cannot find attribute `{a.name}` in this scope", a.span,
                       "unknown attribute",
                       help=f"did you mean `{hint}`?" if hint else None)


CUSTOM_MIR_NOTE = ("`#[custom_mir]` with `core::intrinsics::mir::mir!` writes MIR by hand "
                   "(a nightly rustc feature for testing the compiler); oxidec compiles Rust "
                   "source and builds its own MIR")


def check_cfg(a: ast.Attribute, sink: DiagnosticSink) -> None:
    """A `#[cfg(P)]` still here held, or P is malformed: cfg_removes reports the latter."""
    cfg_removes(a, sink)


def nearest(name: str, candidates) -> str | None:
    import difflib  # only when there is a name to suggest: not on every build's path
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None
