"""`parse(source, sink) -> ast.SourceUnit`: the front end's one entry point.

    text --prescan--> blanked text --LALR (grammar/oxide.lark)--> parse tree --AstBuilder--> AST

The parser is Lark's LALR parser with its contextual lexer; its tables are built from
grammar/oxide.lark once per grammar edit and loaded from the user's cache directory in a few
milliseconds (tables.py), and the parser made from them sets itself up as it goes (lalr.py).
"""
from __future__ import annotations

from dataclasses import replace

from lark.exceptions import UnexpectedInput

from .. import ast
from ..diagnostics import DiagnosticSink, Label
from ..span import SourceFile, Span
from .errors import ErrorReporter
from .lalr import LalrParser
from .macro_rules import MAX_DEPTH, MacroError, definitions, expand_call
from .prescan import LexError, prescan
from .tables import grammar_text, load_tables
from .transform import AstBuilder

SYNTAX = "OX0001"

__all__ = ["parse", "lark_parser", "build_parser", "grammar_text"]

_parser: LalrParser | None = None


def build_parser(use_cache: bool = True) -> LalrParser:
    """The parser, from the cached tables (built and stored when the grammar changed);
    callers normally use `lark_parser()`."""
    return LalrParser(load_tables(use_cache))


def lark_parser() -> LalrParser:
    """The process-wide parser."""
    global _parser
    if _parser is None:
        _parser = build_parser()
    return _parser


def _report_lex_error(file: SourceFile, sink: DiagnosticSink, err: LexError) -> None:
    labels = [Label(Span(file, s, e), lab) for s, e, lab in err.secondary]
    sink.error(SYNTAX, err.message, Span(file, err.start, err.end), err.label,
               labels=labels, notes=list(err.notes))


def parse(source: SourceFile, sink: DiagnosticSink,
          promote: frozenset[int] = frozenset(), macros: dict | None = None,
          depth: int = 0) -> ast.SourceUnit:
    """Parse one file. Syntax errors go to `sink` (code OX0001); the unit returned holds
    every item that parsed, so later phases may still look at it. `promote` holds the
    offsets of host items (plain `fn`s, `impl`s) that device code reaches: those are parsed
    too (see resolve/reach.py)."""
    pre = prescan(source.text, promote)
    for err in pre.errors:
        _report_lex_error(source, sink, err)
    empty = ast.SourceUnit(items=(), span=Span(source, 0, len(source.text)))
    if pre.fatal:
        return empty
    lk = lark_parser()
    reporter = ErrorReporter(source, sink, pre, lk.terminals)
    try:
        tree = lk.parse(pre.text, on_error=reporter.on_error)
    except UnexpectedInput:
        return empty  # reported by on_error, which then gave up
    unit = AstBuilder(source, sink, pre.skipped).transform(tree)
    defs = dict(macros or {})
    defs.update(definitions(source.text, pre.skipped))
    return expand_item_macros(unit, defs, sink, depth) if defs else unit


def expand_item_macros(unit: ast.SourceUnit, defs: dict, sink: DiagnosticSink,
                       depth: int) -> ast.SourceUnit:
    """Each item-level call of a macro the file defines, replaced by the items of its
    expansion (macro_rules.py), in every module."""
    def items_of(items: tuple) -> tuple:
        out: list = []
        for item in items:
            if isinstance(item, ast.ModItem):
                out.append(replace(item, items=items_of(item.items)))
            elif isinstance(item, ast.SkippedItem) and item.kind == "macro" \
                    and item.name in defs:
                out += expand_one(item, defs[item.name])
            else:
                out.append(item)
        return tuple(out)

    def expand_one(call: ast.SkippedItem, d) -> list:
        span = call.span
        if isinstance(d, MacroError):
            sink.error(SYNTAX, str(d), span, "in this macro call")
            return []
        if depth >= MAX_DEPTH:
            sink.error(SYNTAX, f"recursion limit reached while expanding `{call.name}!`", span,
                       "expanded here", notes=[f"macros expand at most {MAX_DEPTH} levels deep"])
            return []
        try:
            text = expand_call(d, span.text())
        except MacroError as err:
            at = span.start + err.at
            sink.error(SYNTAX, str(err), Span(span.file, at, min(at + 1, span.end)),
                       "no rule matches this call")
            return []
        # a name in `<..>`: no `.file` of its own in the PTX line table (ptx/module.py)
        name = f"<expansion of `{call.name}!` at {span.file.name}:{span.line}:{span.col}>"
        file = SourceFile(name, text)
        # the expansion's plain `fn`s and `impl`s are parsed as device code (resolve/reach.py
        # decides that by name for the file itself); if one of them is host code, not
        scratch = DiagnosticSink()
        reached = frozenset(o for o, info in prescan(text).skipped.items()
                            if info.kind in ("fn", "impl", "trait"))
        inner = parse(file, scratch, reached, defs, depth + 1)
        if scratch.has_errors and reached:
            scratch = DiagnosticSink()
            inner = parse(file, scratch, frozenset(), defs, depth + 1)
        sink.diagnostics.extend(scratch.diagnostics)
        return list(inner.items)

    return replace(unit, items=items_of(unit.items))
