"""Item collection and validation: which functions are kernels and device functions, which
consts, statics and structs exist, and whether their attributes make sense.

Device items share one namespace per file (a `#[cuda_module] mod kernels { use super::*; }`
sees the file's top-level items, and the top level may name the module's items too), which
is how cuda-oxide files are written. Host items are recorded only so that calling one from
device code gives a helpful error.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from .diagnostics import DiagnosticSink, Label

# Attributes oxidec understands, by the item kind they may appear on.
FN_ATTRS = {"kernel", "device", "launch_bounds", "launch_contract", "inline", "allow",
            "warn", "deny", "doc", "must_use", "cold"}
MOD_ATTRS = {"cuda_module", "allow", "doc", "cfg"}
STRUCT_ATTRS = {"derive", "repr", "allow", "doc"}
OTHER_ATTRS = {"allow", "doc"}
KNOWN_ATTRS = FN_ATTRS | MOD_ATTRS | STRUCT_ATTRS | {"unroll"}


@dataclass
class ItemTable:
    """The file's device-visible items by name."""

    fns: dict[str, ast.FnItem] = field(default_factory=dict)  # #[kernel] and #[device]
    host_fns: dict[str, ast.HostFn] = field(default_factory=dict)
    consts: dict[str, ast.ConstItem] = field(default_factory=dict)
    statics: dict[str, ast.StaticItem] = field(default_factory=dict)
    structs: dict[str, ast.StructItem] = field(default_factory=dict)
    enums: dict[str, ast.EnumItem] = field(default_factory=dict)
    source: ast.SourceUnit | None = None

    def fn_kind(self, fn: ast.FnItem) -> str:
        return "kernel" if attr(fn, "kernel") else "device"


def attr(item: ast.Item, name: str) -> ast.Attribute | None:
    for a in item.attrs:
        if a.name == name:
            return a
    return None


def resolve(unit: ast.SourceUnit, sink: DiagnosticSink) -> ItemTable:
    table = ItemTable(source=unit)
    _collect(unit.items, table, sink)
    return table


def _collect(items: tuple[ast.Item, ...], table: ItemTable, sink: DiagnosticSink) -> None:
    for item in items:
        if isinstance(item, ast.ModItem):
            _check_attrs(item, MOD_ATTRS, sink)
            _collect(item.items, table, sink)
        elif isinstance(item, ast.FnItem):
            _check_attrs(item, FN_ATTRS, sink)
            if attr(item, "kernel") and attr(item, "device"):
                sink.error("OX0003", "a function cannot be both `#[kernel]` and `#[device]`",
                           item.name_span, "declared here")
            _define(table.fns, item, table, sink)
        elif isinstance(item, ast.HostFn):
            table.host_fns.setdefault(item.name, item)
        elif isinstance(item, ast.ConstItem):
            _check_attrs(item, OTHER_ATTRS, sink)
            _define(table.consts, item, table, sink)
        elif isinstance(item, ast.StaticItem):
            _check_attrs(item, OTHER_ATTRS, sink)
            _define(table.statics, item, table, sink)
        elif isinstance(item, ast.StructItem):
            _check_attrs(item, STRUCT_ATTRS, sink)
            _define(table.structs, item, table, sink)
        elif isinstance(item, ast.EnumItem):
            _check_attrs(item, STRUCT_ATTRS, sink)
            _define(table.enums, item, table, sink)
        # UseItem and SkippedItem need nothing here.


def _define(space: dict, item: ast.Item, table: ItemTable, sink: DiagnosticSink) -> None:
    previous = (table.fns.get(item.name) or table.consts.get(item.name)
                or table.statics.get(item.name))
    if isinstance(item, (ast.StructItem, ast.EnumItem)):
        previous = table.structs.get(item.name) or table.enums.get(item.name)
    if previous is not None:
        sink.error("E0428", f"the name `{item.name}` is defined multiple times", item.name_span,
                   f"`{item.name}` redefined here",
                   labels=[Label(previous.name_span, f"previous definition of `{item.name}` here")],
                   notes=[f"`{item.name}` must be defined only once in this file"])
        return
    space[item.name] = item


def _check_attrs(item: ast.Item, allowed: set[str], sink: DiagnosticSink) -> None:
    for a in item.attrs:
        if a.name in allowed:
            continue
        if a.name in KNOWN_ATTRS:
            sink.error("OX0003", f"attribute `#[{a.name}]` is not allowed here", a.span,
                       "not allowed on this item")
        else:
            hint = _nearest(a.name, sorted(KNOWN_ATTRS))
            sink.error("OX0003", f"cannot find attribute `{a.name}` in this scope", a.span,
                       "unknown attribute",
                       help=f"a similar attribute exists: `{hint}`" if hint else None)


def _nearest(name: str, candidates: list[str]) -> str | None:
    import difflib
    found = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return found[0] if found else None
