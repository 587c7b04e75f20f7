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


def resolve(unit: ast.SourceUnit, sink: DiagnosticSink) -> ItemTable:
    return collect(unit, sink)


__all__ = ["ADT_KINDS", "KNOWN_ATTRS", "Def", "ItemTable", "Module", "Res", "Resolver", "attr",
           "resolve"]
