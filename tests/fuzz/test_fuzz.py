"""The front-end fuzzer's CI slice (the long run is `python tests/fuzz/run.py --mutants 5000`),
and the limits it found: deep nesting compiles, nesting past the limit is a positioned
diagnostic, a 5000-digit literal is a diagnostic, an unknown attribute on a kernel is an error.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutate  # noqa: E402
import run  # noqa: E402
from oxidec import deep, driver  # noqa: E402
from oxidec.diagnostics import CompileError  # noqa: E402


def test_mutants_never_crash(rng):
    """A few hundred token, byte and size mutants: no internal error, no traceback, no exit
    101, no output file left after a failure (every 40th mutant goes through the CLI)."""
    seed = int(rng.integers(0, 2**31))
    rep = run.fuzz(250, seed, jobs=2, timeout=30.0, cli_every=40, sizes=(50, 400))
    assert rep["counts"].get("cli-run", 0) >= 5
    assert rep["counts"].get("diag", 0) > 50  # the mutants do break things
    assert not rep["failures"], f"fuzz seed {seed}:\n" + run.summary(rep)


def test_mutations_change_the_input(rng):
    import random
    r = random.Random(int(rng.integers(0, 2**31)))
    files = mutate.corpus()
    assert len(files) > 50
    name, text = files[0]
    assert mutate.token_mutation(r, text, ["@"]) != text or mutate.token_mutation(r, text, ["@"]) != text
    assert mutate.byte_mutation(r, text) != text.encode()
    assert "".join(mutate.tokens(text)) == text  # the tokenizer loses nothing


def compile_text(text: str):
    return driver.compile_source(text, "nest.rs")


@pytest.mark.parametrize("kind,n", [("blocks", 2000), ("sum", 600), ("elseif", 600),
                                    ("parens", 3000)])
def test_deep_nesting_compiles(kind, n):
    """rustc compiles these; oxidec used to stop at ~326 blocks, 491 terms, 485 `else if`s."""
    body = {
        "blocks": "let _b = " + "{" * n + "a" + "}" * n + ";",
        "sum": "let _s = " + " + ".join(["a"] * n) + ";",
        "elseif": "let _e = if a == 0 { 0 }" + "".join(f" else if a == {i} {{ {i} }}"
                                                     for i in range(1, n)) + " else { 1 };",
        "parens": "let _p = " + "(" * n + "a" + ")" * n + ";",
    }[kind]
    comp = compile_text(mutate.KERNEL.replace("BODY", body))
    assert ".entry k(" in comp.ptx


def test_nesting_past_the_limit_is_a_positioned_diagnostic(monkeypatch):
    monkeypatch.setattr(deep, "RECURSION_LIMIT", 2500)
    n = 3000
    text = mutate.KERNEL.replace("BODY", "let _b = " + "{" * n + "a" + "}" * n + ";")
    with pytest.raises(CompileError) as info:
        compile_text(text)
    (d,) = info.value.diagnostics
    assert d.code == "OX0008" and d.message == "input too deeply nested"
    line, col = d.primary.span.line, d.primary.span.col
    assert line == 7 and 15 < col < 15 + n + 2, (line, col)  # inside the braces
    assert "nesting limit reached here" == d.primary.message


def test_recursion_limit_is_restored():
    before = sys.getrecursionlimit()
    compile_text(mutate.KERNEL.replace("BODY", ""))
    assert sys.getrecursionlimit() == before
