"""Which attributes oxidec understands, on which items; unknown ones are errors."""
from __future__ import annotations

import difflib

from .. import ast
from ..diagnostics import DiagnosticSink

# Attributes oxidec understands, by the item kind they may appear on.
FN_ATTRS = {"kernel", "device", "launch_bounds", "launch_contract", "cluster_launch", "inline",
            "cooperative_launch",
            "allow",
            "warn", "deny", "doc", "must_use", "cold"}
MOD_ATTRS = {"cuda_module", "allow", "doc", "cfg"}
STRUCT_ATTRS = {"derive", "repr", "allow", "doc"}
OTHER_ATTRS = {"allow", "doc"}
STATIC_ATTRS = OTHER_ATTRS | {"constant"}  # `#[constant] static X: ConstantMemory<T>`
KNOWN_ATTRS = FN_ATTRS | MOD_ATTRS | STRUCT_ATTRS | STATIC_ATTRS | {"unroll"}


def attr(item: ast.Item, name: str) -> ast.Attribute | None:
    for a in item.attrs:
        if a.name == name:
            return a
    return None


def check_attrs(item: ast.Item, allowed: set[str], sink: DiagnosticSink) -> None:
    for a in item.attrs:
        if a.name in allowed:
            continue
        if a.name in KNOWN_ATTRS:
            sink.error("OX0003", f"attribute `#[{a.name}]` is not allowed here", a.span,
                       "not allowed on this item")
        else:
            hint = nearest(a.name, sorted(KNOWN_ATTRS))
            sink.error("OX0003", f"cannot find attribute `{a.name}` in this scope", a.span,
                       "unknown attribute",
                       help=f"did you mean `{hint}`?" if hint else None)


def nearest(name: str, candidates) -> str | None:
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None
