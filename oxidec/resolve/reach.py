"""Which blanked host items device code may reach, so that the parser sees them.

The pre-scanner blanks every `fn` without `#[kernel]`/`#[device]` and every `impl` block
(host code is full of syntax the kernel grammar does not know). Device code may still call
a plain `fn` or a method of a type it uses: those items are parsed on a second pass. This
is by name (any identifier in a parsed function body, signature or struct), so it may
parse an item that turns out to be unreached; type checking decides what is really
compiled (typeck's worklist from the kernels).
"""
from __future__ import annotations

import dataclasses

from .. import ast


def referenced_names(unit: ast.SourceUnit) -> set[str]:
    """Every identifier used in a path, type, method call or field of the parsed items."""
    names: set[str] = set()
    stack: list = list(unit.items)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.HostFn, ast.SkippedItem)):
            continue
        if isinstance(node, ast.PathSegment):
            names.add(node.name)
        elif isinstance(node, ast.MethodCallExpr):
            names.add(node.method)
        elif isinstance(node, ast.UseImport):
            names.update(node.path)
            if node.alias:
                names.add(node.alias)
        for f in dataclasses.fields(node):
            if f.name == "span":
                continue
            child = getattr(node, f.name)
            if isinstance(child, ast.Node):
                stack.append(child)
            elif isinstance(child, tuple):
                for c in child:
                    if isinstance(c, ast.Node):
                        stack.append(c)
                    elif isinstance(c, tuple):
                        stack.extend(x for x in c if isinstance(x, ast.Node))
    return names


def promotions(unit: ast.SourceUnit) -> frozenset[int]:
    """Offsets of the blanked host items whose name parsed code mentions: plain `fn`s and
    inherent `impl`s (named after their self type by the pre-scanner)."""
    names = referenced_names(unit)
    out: set[int] = set()
    stack: list = list(unit.items)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.ModItem):
            stack.extend(item.items)
        elif isinstance(item, ast.HostFn) and item.name in names:
            out.add(item.span.start)
        elif isinstance(item, ast.SkippedItem) and item.kind == "impl" and item.name \
                and item.name in names:
            out.add(item.span.start)
    return frozenset(out)
