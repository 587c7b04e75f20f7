"""`parse(source, sink) -> ast.SourceUnit`: the front end's one entry point.

    text --prescan--> blanked text --LALR (grammar/oxide.lark)--> parse tree --AstBuilder--> AST

The parser is Lark's LALR parser with its contextual lexer; its tables are built from
grammar/oxide.lark once per grammar edit and loaded from the user's cache directory in a few
milliseconds (tables.py), and the parser made from them sets itself up as it goes (lalr.py).
"""
from __future__ import annotations

from lark.exceptions import UnexpectedInput

from .. import ast
from ..diagnostics import DiagnosticSink, Label
from ..span import SourceFile, Span
from .errors import ErrorReporter
from .lalr import LalrParser
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
          promote: frozenset[int] = frozenset()) -> ast.SourceUnit:
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
    return AstBuilder(source, sink, pre.skipped).transform(tree)
