"""The parser's stored tables (oxidec/syntax/tables.py) and the lazily assembled parser
(oxidec/syntax/lalr.py): built from grammar/oxide.lark alone, never stale, reproducible, and
parsing exactly as Lark's own LALR parser with its contextual lexer does."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark, Token

from oxidec.syntax import build_parser, grammar_text
from oxidec.syntax import lalr, tables
from oxidec.syntax.prescan import prescan

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def reference() -> Lark:
    """Lark's parser built from the grammar the ordinary way (about a second), with the two
    rules oxidec's lexer adds (lalr.py): a `<` the parser can take as CAST_LT is one, and a
    `>>`, `>>=` or `>=` the parser cannot take is split into `>` and the rest when it can
    take a `>` (closing generic arguments)."""
    lark = Lark(grammar_text(), **tables.LARK_OPTIONS)
    lexer = lark.parser.lexer
    plain = lexer.lex

    def lex(lexer_state, parser_state):
        states = parser_state.parse_conf.states
        lc = lexer_state.line_ctr
        for tok in plain(lexer_state, parser_state):
            if tok.type == "LT" and "CAST_LT" in states[parser_state.position]:
                tok.type = "CAST_LT"
            if tok.type in lalr._SPLIT and not lalr._shifts(states, parser_state, tok.type) \
                    and lalr._shifts(states, parser_state, "GT"):
                lc.char_pos, lc.line, lc.column = tok.start_pos, tok.line, tok.column
                lc.line_start_pos = tok.start_pos - tok.column + 1
                tok = lalr._split_gt(lexer_state)  # the rest is read by the next step
            yield tok

    lexer.lex = lex
    return lark


def _outcome(parser, text: str):
    """Everything a parse shows: the tree, every token with its position, every node's
    span, and the errors on the way (recovery: Lark's default, skipping)."""
    errors = []

    def on_error(e):
        tok = getattr(e, "token", None)
        errors.append((type(e).__name__, getattr(e, "pos_in_stream", None),
                       tok and (tok.type, str(tok), tok.start_pos),
                       sorted(getattr(e, "expected", None) or ()),
                       sorted(getattr(e, "allowed", None) or ())))
        return len(errors) < 5

    try:
        tree = parser.parse(text, on_error=on_error)
    except Exception as e:  # noqa: BLE001 -- compared, not hidden
        return ("raised", type(e).__name__, errors)
    tokens = [(t.type, str(t), t.start_pos, t.end_pos, t.line, t.column, t.end_line,
               t.end_column) for t in tree.scan_values(lambda v: isinstance(v, Token))]
    spans = [(s.data, s.meta.empty or (s.meta.start_pos, s.meta.end_pos, s.meta.line,
                                       s.meta.column, s.meta.end_line, s.meta.end_column))
             for s in tree.iter_subtrees()]
    return tree, tokens, spans, errors


def _corpus() -> list[str]:
    files = sorted({*ROOT.glob("samples/*.rs"), *ROOT.glob("tests/**/*.rs"),
                    *ROOT.glob("examples/**/*.rs")})
    return [f.read_text() for f in files]


def test_parses_as_lark_does_on_every_file(reference):
    parser = build_parser()
    texts = [pre.text for pre in (prescan(t, frozenset()) for t in _corpus()) if not pre.fatal]
    assert len(texts) > 100
    for text in texts:
        assert _outcome(parser, text) == _outcome(reference, text)


def test_parses_as_lark_does_on_damaged_input(reference, rng):
    """Random edits (tokens the contextual lexer treats specially among them: `>>` closing
    generics, keywords, lifetimes) give the same trees and the same errors."""
    parser = build_parser()
    pieces = [">>", ">", ">>=", ">=", "&&", "||", "|", "..=", "'a", "'x'", "let", "fn", "true",
              "matches!", "::", ";", "{", "}", "(", ")", ",", "x", "1.0", "0x1f", '"s"', "?",
              "@", "#", "Vec<Vec<u32>>", "==", "as"]
    texts = _corpus()
    compared = 0
    for _ in range(150):
        text = texts[int(rng.integers(len(texts)))]
        for _ in range(int(rng.integers(1, 4))):
            at = int(rng.integers(len(text)))
            if rng.random() < 0.5:
                text = f"{text[:at]} {pieces[int(rng.integers(len(pieces)))]} {text[at:]}"
            else:
                text = text[:at] + text[at + int(rng.integers(1, 7)):]
        pre = prescan(text, frozenset())
        if pre.fatal:
            continue
        compared += 1
        assert _outcome(parser, pre.text) == _outcome(reference, pre.text), text
    assert compared > 50


def test_cache_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("OXIDEC_CACHE_DIR", str(tmp_path / "cache"))
    first = build_parser()
    files = list((tmp_path / "cache").glob("parser-*.tables"))
    assert len(files) == 1
    assert (tmp_path / "cache").stat().st_mode & 0o077 == 0
    assert files[0].read_bytes() == tables.tables_bytes(grammar_text())
    second = build_parser()  # loaded from the file
    src = "#[kernel] fn k(a: &[f32]) { let x = a[0] + 1.0; let v: Vec<Vec<u8>> = 0; }"
    assert first.parse(src) == second.parse(src)


def test_damaged_tables_are_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("OXIDEC_CACHE_DIR", str(tmp_path))
    path = Path(tables.tables_file(str(tmp_path), grammar_text()))
    path.write_bytes(b"not marshal data")
    tmp_path.chmod(0o700)
    assert build_parser().parse("fn f() {}") is not None
    assert path.read_bytes() == tables.tables_bytes(grammar_text())


def test_cache_ignores_unsafe_dir(tmp_path, monkeypatch):
    cache = tmp_path / "shared"
    cache.mkdir()
    cache.chmod(0o777)
    bogus = Path(tables.tables_file(str(cache), grammar_text()))
    bogus.write_bytes(b"not marshal data")
    monkeypatch.setenv("OXIDEC_CACHE_DIR", str(cache))
    parser = build_parser()  # neither reads nor writes a world-writable directory
    assert parser.parse("") is not None
    assert sorted(p.name for p in cache.iterdir()) == [bogus.name]


def test_edited_grammar_never_meets_old_tables(tmp_path, monkeypatch):
    """The tables are found by a hash of the grammar text: after an edit the old file is
    not used, and the parser follows the edited grammar."""
    monkeypatch.setenv("OXIDEC_CACHE_DIR", str(tmp_path))
    src = "#[device] fn f() -> bool { let x = yes; x }"

    def literal_types(parser):
        return [t.type for t in parser.parse(src).scan_values(lambda v: isinstance(v, Token))
                if t == "yes"]

    assert literal_types(build_parser()) == ["IDENT"]
    grammar = grammar_text()
    assert 'TRUE: "true"' in grammar
    edited = grammar.replace('TRUE: "true"', 'TRUE: "yes"')
    monkeypatch.setattr(tables, "grammar_text", lambda: edited)
    assert tables.tables_file(str(tmp_path), edited) != tables.tables_file(str(tmp_path),
                                                                           grammar)
    assert literal_types(build_parser()) == ["TRUE"]
    assert len(list(tmp_path.glob("parser-*.tables"))) == 2


def test_tables_are_reproducible():
    """The same grammar gives the same bytes, whatever the hash seed (Lark's own state
    numbering follows set iteration order)."""
    code = ("import hashlib; from oxidec.syntax.tables import tables_bytes, grammar_text; "
            "print(hashlib.sha256(tables_bytes(grammar_text())).hexdigest())")
    digests = set()
    for seed in ("1", "2"):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=ROOT, timeout=300,
                           env=dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=seed))
        assert r.returncode == 0, r.stderr
        digests.add(r.stdout.strip())
    assert digests == {hashlib.sha256(tables.tables_bytes(grammar_text())).hexdigest()}
