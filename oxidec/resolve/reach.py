"""Which blanked host items device code may reach, so that the parser sees them.

The pre-scanner blanks every `fn` without `#[kernel]`/`#[device]` and every `impl` block
(host code is full of syntax the kernel grammar does not know). Device code may still call
a plain `fn` or a method of a type it uses: those items are parsed on a second pass. This
is by name (any identifier in a parsed function body, signature or struct), so it may
parse an item that turns out to be unreached; type checking decides what is really
compiled (typeck's worklist from the kernels).
"""
from __future__ import annotations

import re

from .. import ast
from ..ast_fields import child_fields


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
        for name in child_fields(node):
            child = getattr(node, name)
            if isinstance(child, ast.Node):
                stack.append(child)
            elif isinstance(child, tuple):
                for c in child:
                    if isinstance(c, ast.Node):
                        stack.append(c)
                    elif isinstance(c, tuple):
                        stack.extend(x for x in c if isinstance(x, ast.Node))
    return names


def parse_reached(source, sink):
    """Parse, then parse again with the host items that device code names kept, until no
    new ones appear. A promoted item that does not parse is blanked again and its first
    syntax error kept: it is reported only if type checking finds that a kernel reaches it
    (typeck/calls.py). Returns (unit, {item offset: Diagnostic})."""
    from ..diagnostics import DiagnosticSink
    from ..syntax import parse
    promote: frozenset[int] = frozenset()
    blocked: dict[int, object] = {}
    extents: dict[int, int] = {}
    while True:
        scratch = DiagnosticSink()
        unit = parse(source, scratch, promote)
        if scratch.has_errors:
            errors = [d for d in scratch.diagnostics if d.level == "error"]
            bad = {}
            for off in promote:
                inside = [d for d in errors if off <= d.primary.span.start < extents[off]]
                if inside:
                    bad[off] = inside[0]
            if not bad:  # an error in code that was always parsed: the user's to fix
                sink.diagnostics.extend(scratch.diagnostics)
                return unit, blocked
            blocked.update(bad)
            promote = promote - frozenset(bad)
            continue
        for item in _host_items(unit):
            extents[item.span.start] = item.span.end
        more = (promotions(unit) - frozenset(blocked)) | promote
        if more == promote:
            sink.diagnostics.extend(scratch.diagnostics)
            return unit, blocked
        promote = more


def _host_items(unit: ast.SourceUnit):
    stack: list = list(unit.items)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.ModItem):
            stack.extend(item.items)
        elif isinstance(item, (ast.HostFn, ast.SkippedItem)):
            yield item


def promotions(unit: ast.SourceUnit) -> frozenset[int]:
    """Offsets of the blanked host items whose name parsed code mentions: plain `fn`s and
    `impl`s (named after their self type by the pre-scanner, trait impls too) and traits."""
    names = referenced_names(unit)
    out: set[int] = set()
    stack: list = list(unit.items)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.ModItem):
            stack.extend(item.items)
        elif isinstance(item, ast.HostFn) and item.name in names:
            out.add(item.span.start)
        elif isinstance(item, ast.SkippedItem) and item.kind in ("impl", "trait") and item.name \
                and item.name in names:
            out.add(item.span.start)
        elif isinstance(item, ast.SkippedItem) and item.kind == "impl" \
                and impl_trait_name(item.span.text()) in names:
            out.add(item.span.start)  # an impl of a trait device code names (a bound's)
    return frozenset(out)


_TRAIT_IMPL = re.compile(r"impl\s*(?:<[^{]*?>)?\s*(?:[\w:]*::)?(\w+)\s*(?:<[^{]*?>)?\s+for\s")


def impl_trait_name(text: str) -> str | None:
    """The trait's name in the text of `impl<..> path::Trait<..> for Type ..`, else None."""
    m = _TRAIT_IMPL.match(text)
    return m.group(1) if m else None
