"""`parse(source, sink) -> ast.SourceUnit`: the front end's one entry point.

    text --prescan--> blanked text --LALR (grammar/oxide.lark)--> AST

The LALR tables are built from grammar/oxide.lark by Lark once per grammar edit and loaded
from the user's cache directory in a few milliseconds (tables.py). A text is parsed by
direct.py, which builds the AST at each reduction (transform.AstBuilder's methods) and needs
no part of Lark. At a syntax error it gives up, and the text is parsed again by Lark's
parser (lalr.py) into a parse tree, with the error recovery of errors.py reporting every
error, and the AST built from the tree (tree_walk.py): the same methods, the same result
where the two both parse.
"""
from __future__ import annotations

from dataclasses import replace

from .. import ast
from ..diagnostics import DiagnosticSink, Label
from ..span import SourceFile, Span
from ..ast_fields import child_fields
from .direct import DirectParser, SyntaxFailure
from .macro_rules import MAX_DEPTH, MacroDef, MacroError, definitions, expand_call
from .prescan import LexError, prescan
from .tables import grammar_text, load_tables
from .transform import AstBuilder

SYNTAX = "OX0001"

__all__ = ["parse", "lark_parser", "build_parser", "grammar_text"]

_tables: dict | None = None
_direct: DirectParser | None = None
_parser = None  # lalr.LalrParser, made at the first syntax error


def _load_tables() -> dict:
    global _tables
    if _tables is None:
        _tables = load_tables()
    return _tables


def build_parser(use_cache: bool = True):
    """Lark's parser (lalr.LalrParser), from the cached tables (built and stored when the
    grammar changed); callers normally use `lark_parser()`."""
    from .lalr import LalrParser
    return LalrParser(load_tables(use_cache))


def lark_parser():
    """The process-wide Lark parser (the parse after a syntax error)."""
    global _parser
    if _parser is None:
        from .lalr import LalrParser
        _parser = LalrParser(_load_tables())
    return _parser


def direct_parser() -> DirectParser:
    """The process-wide direct parser."""
    global _direct
    if _direct is None:
        _direct = DirectParser(_load_tables(), AstBuilder)
    return _direct


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
    # the builder's own diagnostics (a keyword as a name, a bad literal) wait in `scratch`:
    # at a syntax error they are dropped, and the parse with Lark reports them after it
    scratch = DiagnosticSink()
    try:
        unit = direct_parser().parse(pre.text, AstBuilder(source, scratch, pre.skipped))
    except SyntaxFailure:
        unit = _parse_with_recovery(source, sink, pre)
        if unit is None:
            return empty
    else:
        for diag in scratch.diagnostics:
            sink.emit(diag)
    defs = dict(macros or {})
    defs.update(definitions(source.text, pre.skipped))
    return expand_item_macros(unit, defs, sink, depth) if defs else unit


def _parse_with_recovery(source: SourceFile, sink: DiagnosticSink, pre) -> ast.SourceUnit | None:
    """Lark's parse, with errors.py reporting each syntax error and recovering; None when it
    gave up."""
    from .errors import ErrorReporter, UnexpectedInput  # imports Lark (lark_runtime.py)
    from .tree_walk import build
    lk = lark_parser()
    reporter = ErrorReporter(source, sink, pre, lk.terminals)
    try:
        tree = lk.parse(pre.text, on_error=reporter.on_error)
    except UnexpectedInput:
        return None  # reported by on_error, which then gave up
    return build(AstBuilder(source, sink, pre.skipped), tree)


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
        outer = span.file.name
        where = outer[outer.index(" at ") + 4:-1] if outer.startswith("<expansion of ") \
            else f"{outer}:{span.line}:{span.col}"  # the call in the user's file
        name = f"<expansion of `{call.name}!` at {where}>"
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

    def expr_of(call: ast.MacroCallExpr):
        """`square!(x + 1)` in an expression or statement: its expansion, parsed as the body
        of a block (the block keeps the macro's own `let`s to itself, as hygiene does)."""
        span = call.span
        d = defs[call.name]
        if isinstance(d, MacroError) or depth >= MAX_DEPTH:
            sink.error(SYNTAX, str(d) if isinstance(d, MacroError) else
                       f"recursion limit reached while expanding `{call.name}!`", span,
                       "in this macro call")
            return call
        try:
            text = expand_call(d, span.text())
        except MacroError as err:
            at = span.start + err.at
            sink.error(SYNTAX, str(err), Span(span.file, at, min(at + 1, span.end)),
                       "no rule matches this call")
            return call
        outer = span.file.name
        where = outer[outer.index(" at ") + 4:-1] if outer.startswith("<expansion of ") \
            else f"{outer}:{span.line}:{span.col}"
        file = SourceFile(f"<expansion of `{call.name}!` at {where}>",
                          "#[device] fn expansion() {\n" + text + "\n}\n")
        inner = parse(file, sink, frozenset(), defs, depth + 1)
        fn = inner.items[0] if inner.items and isinstance(inner.items[0], ast.FnItem) else None
        if fn is None:
            return call
        return ast.BlockExpr(block=fn.body, span=span)

    def rewrite(node):
        if isinstance(node, ast.MacroCallExpr) and node.name in defs:
            return expr_of(node)
        changes = {}
        for name in child_fields(node):
            value = getattr(node, name)
            new = rewrite_value(value)
            if new is not value:
                changes[name] = new
        return replace(node, **changes) if changes else node

    def rewrite_value(value):
        if isinstance(value, ast.Node):
            return rewrite(value)
        if isinstance(value, tuple):
            new = tuple(rewrite_value(v) for v in value)
            return value if all(a is b for a, b in zip(new, value)) else new
        return value

    unit = replace(unit, items=items_of(unit.items))
    return rewrite(unit) if any(isinstance(d, MacroDef) for d in defs.values()) else unit
