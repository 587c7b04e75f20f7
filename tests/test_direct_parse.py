"""The direct parse (oxidec/syntax/direct.py: the AST built at each LALR reduction, no Lark)
against the parse it stands in for -- Lark's parser (lalr.py), its tree, and the AST builder
walked over that tree (tree_walk.py): on every text where Lark parses without error the two
give the same AST, spans and the builder's own diagnostics; where Lark finds an error the
direct parse gives up (and parser.py parses with Lark)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from oxidec.diagnostics import DiagnosticSink
from oxidec.span import SourceFile
from oxidec.syntax import parse
from oxidec.syntax.direct import SyntaxFailure
from oxidec.syntax.parser import direct_parser, lark_parser
from oxidec.syntax.prescan import prescan
from oxidec.syntax.token import Token
from oxidec.syntax.transform import AstBuilder
from oxidec.syntax.tree_walk import build

ROOT = Path(__file__).resolve().parents[1]


def _same(a, b) -> bool:
    """Structural equality (some AST classes compare by identity)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if hasattr(a, "__dataclass_fields__"):
        return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    return a == b


def _has_token(value) -> bool:
    if isinstance(value, Token):
        return True
    if isinstance(value, (tuple, list)):
        return any(_has_token(v) for v in value)
    if hasattr(value, "__dataclass_fields__"):
        return any(_has_token(getattr(value, f)) for f in value.__dataclass_fields__)
    return False


def _diags(sink: DiagnosticSink) -> list:
    return [(d.code, d.message, d.primary.span.start, d.primary.span.end, d.primary.message)
            for d in sink.diagnostics]


def _outcomes(name: str, text: str):
    """(direct AST or None, its diagnostics), (Lark's AST or None, its diagnostics)."""
    source = SourceFile(name, text)
    pre = prescan(text, frozenset())
    if pre.fatal:
        return None
    direct_sink = DiagnosticSink()
    try:
        direct = direct_parser().parse(pre.text, AstBuilder(source, direct_sink, pre.skipped))
    except SyntaxFailure:
        direct = None
    errors = []
    try:
        tree = lark_parser().parse(pre.text, on_error=lambda e: errors.append(e) and False)
    except Exception as e:  # noqa: BLE001 -- compared below
        errors.append(e)
    lark_sink = DiagnosticSink()
    lark = None if errors else build(AstBuilder(source, lark_sink, pre.skipped), tree)
    return (direct, _diags(direct_sink)), (lark, _diags(lark_sink))


def _corpus() -> list[Path]:
    return sorted({*ROOT.glob("samples/*.rs"), *ROOT.glob("tests/**/*.rs"),
                   *ROOT.glob("examples/**/*.rs")})


def _check(name: str, text: str) -> bool:
    """Compares the two parses of text; whether Lark parsed it."""
    got = _outcomes(name, text)
    if got is None:
        return False
    (direct, direct_diags), (lark, lark_diags) = got
    if lark is None:
        assert direct is None, f"{name}: the direct parse took a text Lark rejects"
        return False
    assert direct is not None, f"{name}: the direct parse gave up on a text Lark parses"
    assert _same(direct, lark), name
    assert direct_diags == lark_diags, name
    assert not _has_token(direct), name
    return True


def test_builds_the_ast_lark_does_on_every_file():
    parsed = sum(_check(str(path), path.read_text()) for path in _corpus())
    assert parsed > 300


def test_builds_the_ast_lark_does_on_damaged_input(rng):
    """Random edits, among them the tokens the lexer treats specially (`>>` closing
    generics, keywords as names, `as T<`), parenthesised patterns and types (positions
    that cover dropped tokens), empty items."""
    pieces = [">>", ">", ">>=", ">=", "&&", "||", "|", "..=", "'a", "'x'", "let", "fn", "true",
              "::", ";", "{", "}", "(", ")", ",", "x", "1.0", "0x1f", '"s"', "@", "#",
              "Vec<Vec<u32>>", "==", "as", "as u32 <", "(x)", "((u32))", "mut", "ref",
              "match x { (1) | (2) => 0, _ => 1 }", "let (a) = (b);", "'l: loop {}", "\n"]
    texts = [path.read_text() for path in _corpus()]
    parsed = 0
    for _ in range(200):
        text = texts[int(rng.integers(len(texts)))]
        for _ in range(int(rng.integers(1, 4))):
            at = int(rng.integers(len(text)))
            if rng.random() < 0.6:
                text = f"{text[:at]} {pieces[int(rng.integers(len(pieces)))]} {text[at:]}"
            else:
                text = text[:at] + text[at + int(rng.integers(1, 7)):]
        parsed += _check("damaged.rs", text)
    assert parsed > 20


def test_the_builders_diagnostics_come_once_and_in_order():
    """A keyword as a name and a bad literal (the builder's own errors) without a syntax
    error: reported by the direct parse; with one: reported once, after it."""
    ok = "#[kernel]\npub fn k(a: &[u32]) {\n    let x = 0xzz;\n    let y = a.fn;\n}\n"
    sink = DiagnosticSink()
    parse(SourceFile("k.rs", ok), sink)
    assert [d.message for d in sink.diagnostics] == [
        "no valid digits found for number", "expected identifier, found keyword `fn`"]
    bad = ok.replace("let y", "let = y; let y")
    sink = DiagnosticSink()
    parse(SourceFile("k.rs", bad), sink)
    messages = [d.message for d in sink.diagnostics]
    assert messages[0].startswith("expected pattern")
    assert messages[1:] == ["no valid digits found for number",
                            "expected identifier, found keyword `fn`"]


def test_a_text_without_errors_is_parsed_without_lark(tmp_path):
    code = ("import sys\nfrom oxidec.syntax import parse\nfrom oxidec.span import SourceFile\n"
            "from oxidec.diagnostics import DiagnosticSink\n"
            f"text = open({str(ROOT / 'samples' / 'softmax.rs')!r}).read()\n"
            "unit = parse(SourceFile('s.rs', text), DiagnosticSink())\n"
            "assert unit.items\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))\n"
            "parse(SourceFile('e.rs', '#[kernel] fn k() { let = 1; }'), DiagnosticSink())\n"
            "print('lark.lark' in sys.modules, 'lark.lexer' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    # after a syntax error Lark's runtime is loaded, still without its grammar compiler
    assert proc.stdout.split("\n")[:2] == ["[]", "False True"]
