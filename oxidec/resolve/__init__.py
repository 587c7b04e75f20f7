"""Items, modules and paths: the item table (table.py), built by collect.py; path
resolution (paths.py); which host items device code reaches (reach.py).

    resolve(unit, sink) -> ItemTable
"""
from __future__ import annotations

from .. import ast
from ..diagnostics import DiagnosticSink
from .attrs import KNOWN_ATTRS, attr
from .collect import collect
from .paths import Res, Resolver
from .table import ADT_KINDS, Def, ItemTable, Module


def resolve(unit: ast.SourceUnit, sink: DiagnosticSink, unparsed: dict | None = None
            ) -> ItemTable:
    """The item table of `unit`; `unparsed` maps the offsets of host items device code names
    but the kernel grammar cannot parse to the first syntax error in each (reach.py)."""
    table = collect(unit, sink)
    table.unparsed = dict(unparsed or {})
    return table


__all__ = ["ADT_KINDS", "KNOWN_ATTRS", "Def", "ItemTable", "Module", "Res", "Resolver", "attr",
           "resolve"]
