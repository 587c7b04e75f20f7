"""The parser's tables: built from grammar/oxide.lark by Lark, stored compactly, loaded in ms.

grammar/oxide.lark stays the one source. Building the LALR tables from it takes Lark about a
second of pure Python, and Lark's own saved form (a pickle of generic dicts, deserialized
object by object, with a lexer built for each of the ~300 lexer contexts) still took ~150 ms
to load. So the tables are kept in a form made for loading:

    terminals  (name, "str" | "re", pattern, flags, priority, (min, max) width)
    ignore     names of the ignored terminals
    rules      (origin, ((symbol, is_terminal, filter_out), ...), order, alias,
                keep_all_tokens, expand1, priority, template_source, empty_indices)
    states     one marshal'd row per LALR state: {symbol: action}, action >= 0 shifts to
               that state, action < 0 reduces by rule ~action; rows are decoded on first use
    start/end  the start and end states

States are numbered in breadth-first order from the start state, symbols taken in sorted
order, so the same grammar always gives the same bytes (Lark's own numbering follows set
iteration order, which changes with the hash seed).

The tables live in the user's cache directory (`$OXIDEC_CACHE_DIR`, else
`$XDG_CACHE_HOME/oxidec`, else `~/.cache/oxidec`) under a name that hashes the grammar text,
the table format and the Lark and Python versions: an edited grammar never meets old tables.
The file is written atomically and only read from a directory that belongs to the current
user and that no one else can write. `OXIDEC_PARSER_CACHE=0` (or `OXIDEC_CACHE_DIR=off`)
builds them in memory every time.
"""
from __future__ import annotations

import marshal
import os
import sys

from ..sha import sha256

FORMAT = 1
LARK_OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True,
                    maybe_placeholders=False, start="source_unit")
START = "source_unit"
# marshal's format 0: no shared references and no interning marks, whose placement follows
# reference counts in the writing process; the bytes then depend on the grammar alone
MARSHAL_VERSION = 0
_PRUNE_AGE_S = 7 * 24 * 3600

_HERE = os.path.dirname(os.path.abspath(__file__))


def grammar_path() -> str | None:
    """grammar/oxide.lark: in the installed package (oxidec/grammar/, mapped in
    pyproject.toml) or at the top of the checkout; None when neither is a plain file."""
    for path in (os.path.join(os.path.dirname(_HERE), "grammar", "oxide.lark"),
                 os.path.join(os.path.dirname(os.path.dirname(_HERE)), "grammar", "oxide.lark")):
        if os.path.isfile(path):
            return path
    return None


def grammar_text() -> str:
    path = grammar_path()
    if path is not None:
        with open(path, encoding="utf-8") as f:
            return f.read()
    from importlib.resources import files  # a zipped install: no plain file to open
    return (files("oxidec.grammar") / "oxide.lark").read_text(encoding="utf-8")


def tables_key(grammar: str) -> str:
    h = sha256()
    for part in (f"oxidec-parser-tables {FORMAT}", grammar, _lark_version_cached(),
                 sys.version, repr(sorted(LARK_OPTIONS.items()))):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


_LARK_VERSION: str | None = None


def _lark_version_cached() -> str:
    global _LARK_VERSION
    if _LARK_VERSION is None:
        _LARK_VERSION = _lark_dist_version()
    return _LARK_VERSION


def _lark_dist_version() -> str:
    """The version from lark's dist-info directory name, found beside the package (what
    importlib.metadata would read, without its import cost); Lark itself as a fallback."""
    import importlib.util
    spec = importlib.util.find_spec("lark")
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        try:
            names = os.listdir(site)
        except OSError:
            names = []
        for name in names:
            if name.startswith("lark-") and name.endswith(".dist-info"):
                return name[len("lark-"):-len(".dist-info")]
    import lark
    return lark.__version__


# ---------------------------------------------------------------------------
# building (imports Lark's grammar compiler: only when the grammar changed)

def tables_bytes(grammar: str) -> bytes:
    """The stored form of the tables of `grammar`: the same bytes on every build."""
    return marshal.dumps(build_tables(grammar), MARSHAL_VERSION)


def build_tables(grammar: str) -> dict:
    """The tables of `grammar`, as plain data (see the module docstring)."""
    from .lark_runtime import install
    install()  # Lark's runtime without `regex` and `interegular` (lark_runtime.py)
    from lark import Lark
    from lark.parsers.lalr_analysis import Shift

    lk = Lark(grammar, **LARK_OPTIONS)
    frontend = lk.parser
    table = frontend.parser._parse_table
    rules = list(frontend.parser_conf.rules)
    rule_index = {rule: i for i, rule in enumerate(rules)}

    # canonical state numbers: breadth-first from the start state, symbols in sorted order
    start = table.start_states[START]
    order, number = [start], {start: 0}
    for state in order:
        for sym in sorted(table.states[state]):
            action, arg = table.states[state][sym]
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    rows = []
    for state in order:
        row = {}
        for sym in sorted(table.states[state]):
            action, arg = table.states[state][sym]
            row[str(sym)] = number[arg] if action is Shift else ~rule_index[arg]
        rows.append(marshal.dumps(row, MARSHAL_VERSION))

    terminals = []
    for t in sorted(lk.terminals, key=lambda t: t.name):
        p = t.pattern
        width = (p.min_width, p.max_width)
        terminals.append((_s(t.name), p.type, _s(p.value), tuple(sorted(map(str, p.flags))),
                          _s(p.raw), t.priority, width))
    rule_rows = []
    for r in rules:
        o = r.options
        rule_rows.append((_s(r.origin.name),
                          tuple((_s(s.name), s.is_term, bool(getattr(s, "filter_out", False)))
                                for s in r.expansion),
                          r.order, _s(r.alias), bool(o.keep_all_tokens), bool(o.expand1),
                          o.priority, _s(o.template_source), tuple(o.empty_indices)))
    return {"format": FORMAT, "terminals": tuple(terminals),
            "ignore": tuple(sorted(lk.ignore_tokens)), "rules": tuple(rule_rows),
            "states": tuple(rows), "start": 0,
            "end": number[table.end_states[START]]}


def _s(text):
    """A plain str (Lark keeps some names as its Token, a str subclass marshal refuses)."""
    return None if text is None else str(text)


# ---------------------------------------------------------------------------
# the cache file

def cache_dir() -> str | None:
    if os.environ.get("OXIDEC_PARSER_CACHE", "1") == "0":
        return None
    base = os.environ.get("OXIDEC_CACHE_DIR")
    if base in ("off", "0"):  # the compile cache's "no cache" (host/cache.py)
        return None
    if base:
        return base
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return os.path.join(xdg, "oxidec")
    home = os.path.expanduser("~")
    if home == "~":  # no home directory: no cache
        return None
    return os.path.join(home, ".cache", "oxidec")


def safe_dir(path: str) -> bool:
    """Ours and writable by us alone: only then are files in it trusted."""
    import stat
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def tables_file(directory: str, grammar: str) -> str:
    return os.path.join(directory, f"parser-{tables_key(grammar)}.tables")


def load_tables(use_cache: bool = True) -> dict:
    """The tables of grammar/oxide.lark: from the cache when it has them, else built (and
    stored for the next process)."""
    grammar = grammar_text()
    directory = cache_dir() if use_cache else None
    path = tables_file(directory, grammar) if directory else None
    if path is not None and safe_dir(directory):
        try:
            with open(path, "rb") as f:
                data = marshal.loads(f.read())
            if isinstance(data, dict) and data.get("format") == FORMAT:
                return data
        except (OSError, EOFError, ValueError, TypeError):
            pass  # missing or damaged: built anew below
    data = build_tables(grammar)
    if path is not None:
        _store(data, directory, path)
    return data


def _store(data: dict, directory: str, path: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if not safe_dir(directory):
            return
        with open(tmp, "wb") as f:
            marshal.dump(data, f, MARSHAL_VERSION)
        os.replace(tmp, path)
    except OSError:  # a read-only home, a full disk: the cache is only an optimisation
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    _prune(directory, keep=path)


def _prune(directory: str, keep: str) -> None:
    """Drop tables of older grammars (one file per grammar edit otherwise)."""
    import time
    now = time.time()
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        old = os.path.join(directory, name)
        if not name.startswith("parser-") or old == keep:
            continue
        try:
            if now - os.stat(old).st_mtime > _PRUNE_AGE_S:
                os.unlink(old)
        except OSError:
            pass
