"""`parse(source, sink) -> ast.SourceUnit`: the front end's one entry point.

    text --prescan--> blanked text --Lark LALR--> parse tree --AstBuilder--> AST

Building the LALR tables from grammar/oxide.lark takes about a second of pure Python,
so the built parser is kept once per process and, across processes, in a cache file
under the user's cache directory (`$OXIDEC_CACHE_DIR`, else `$XDG_CACHE_HOME/oxidec`,
else `~/.cache/oxidec`), keyed by a hash of the grammar and the Lark and Python
versions. The cache is a pickle, so it is only read from a directory that belongs to
the current user and that no one else can write; it is written atomically. Set
`OXIDEC_PARSER_CACHE=0` to build in memory every time.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

import lark
from lark import Lark
from lark.exceptions import UnexpectedInput

from .. import ast
from ..diagnostics import DiagnosticSink, Label
from ..span import SourceFile, Span
from .errors import ErrorReporter
from .prescan import LexError, prescan
from .transform import AstBuilder

SYNTAX = "OX0001"

_LARK_OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True,
                     maybe_placeholders=False, start="source_unit")

_parser: Lark | None = None


def grammar_text() -> str:
    """grammar/oxide.lark, from the installed package or from the checkout."""
    try:
        from importlib.resources import files
        return (files("oxidec.grammar") / "oxide.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        path = Path(__file__).resolve().parents[2] / "grammar" / "oxide.lark"
        return path.read_text(encoding="utf-8")


def _cache_dir() -> Path | None:
    if os.environ.get("OXIDEC_PARSER_CACHE", "1") == "0":
        return None
    base = os.environ.get("OXIDEC_CACHE_DIR")
    if base in ("off", "0"):  # the compile cache's "no cache" (host/cache.py)
        return None
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(xdg) if xdg else Path.home() / ".cache"
    except (RuntimeError, KeyError):  # no home directory: no cache
        return None
    return root / "oxidec"


def _safe_dir(path: Path) -> bool:
    """Ours and writable by us alone: only then is unpickling from it safe."""
    try:
        st = path.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _cache_key(grammar: str) -> str:
    h = hashlib.sha256()
    for part in (grammar, lark.__version__, sys.version, repr(sorted(_LARK_OPTIONS.items()))):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def build_parser(use_cache: bool = True) -> Lark:
    """Build (or load from the cache) the Lark parser; callers normally use `lark_parser()`."""
    grammar = grammar_text()
    cache_dir = _cache_dir() if use_cache else None
    cache_file = cache_dir / f"parser-{_cache_key(grammar)}.lark" if cache_dir else None
    if cache_file is not None and _safe_dir(cache_dir):
        try:
            with open(cache_file, "rb") as f:
                return Lark.load(f)
        except Exception:  # missing, or stale/corrupt: build it anew below
            pass
    parser = Lark(grammar, **_LARK_OPTIONS)
    if cache_file is not None:
        _write_cache(parser, cache_dir, cache_file)
    return parser


def _write_cache(parser: Lark, cache_dir: Path, cache_file: Path) -> None:
    try:
        cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _safe_dir(cache_dir):
            return
        fd, tmp = tempfile.mkstemp(dir=cache_dir, prefix=".parser-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                parser.save(f)
            os.replace(tmp, cache_file)
        except BaseException:
            os.unlink(tmp)
            raise
        _prune(cache_dir, keep=cache_file)
    except Exception:  # a read-only home, a full disk: the cache is only an optimisation
        pass


def _prune(cache_dir: Path, keep: Path, max_age_s: float = 7 * 24 * 3600) -> None:
    """Drop parsers built from older grammars (one file per grammar edit otherwise)."""
    now = time.time()
    for old in cache_dir.glob("parser-*.lark"):
        try:
            if old != keep and now - old.stat().st_mtime > max_age_s:
                old.unlink()
        except OSError:
            pass


def lark_parser() -> Lark:
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
