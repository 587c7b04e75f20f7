"""Golden MIR: every `[case]` in tests/mir/*.test compiles to exactly its `[out]` sections.

`[out]` is the MIR as lowering leaves it (`--emit mir`), `[out mir-opt]` the MIR after the
passes (`--emit mir-opt`, -O2 with fma contraction). Both are also run through the MIR
verifier. Regenerate after a deliberate change with
`pytest tests/mir --bless` and read the diff. The format is described in tests/mir/README.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.mir import verify_program
from oxidec.mir.pretty import pretty_program

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FILES = sorted(HERE.glob("*.test"))

CASE = re.compile(r"^\[case (?P<name>[A-Za-z0-9_]+)\]\s*$")
OUT = re.compile(r"^\[out(?: (?P<stage>[a-z-]+))?\]\s*$")
STAGES = {"mir": "mir", "mir-opt": "mir-opt"}   # section name -> driver stop


@dataclass
class Case:
    name: str
    line: int                         # of the `[case]` header, 1-based
    source: list[str] = field(default_factory=list)
    outputs: dict[str, list[str]] = field(default_factory=dict)   # stage -> expected lines


@dataclass
class GoldenFile:
    path: Path
    header: list[str]                 # comment lines before the first case
    cases: list[Case]


def parse_test_file(path: Path) -> GoldenFile:
    header: list[str] = []
    cases: list[Case] = []
    section: list[str] = header
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if m := CASE.match(line):
            if any(c.name == m["name"] for c in cases):
                raise ValueError(f"{path.name}:{number}: case `{m['name']}` defined twice")
            cases.append(Case(m["name"], number))
            section = cases[-1].source
        elif m := OUT.match(line):
            stage = m["stage"] or "mir"
            if not cases or stage not in STAGES or stage in cases[-1].outputs:
                raise ValueError(f"{path.name}:{number}: unexpected `{line.strip()}`")
            section = cases[-1].outputs[stage] = []
        else:
            section.append(line)
    for case in cases:
        if not case.outputs:
            raise ValueError(f"{path.name}:{case.line}: case `{case.name}` has no [out] section")
    return GoldenFile(path, header, cases)


def trimmed(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n")


def write_test_file(tf: GoldenFile) -> None:
    parts = [trimmed(tf.header) + "\n"] if trimmed(tf.header) else []
    for case in tf.cases:
        text = f"[case {case.name}]\n{trimmed(case.source)}\n"
        for stage, lines in case.outputs.items():
            text += ("[out]\n" if stage == "mir" else f"[out {stage}]\n") + trimmed(lines) + "\n"
        parts.append(text)
    tf.path.write_text("\n".join(parts), encoding="utf-8")


def compile_case(tf: GoldenFile, case: Case, stage: str) -> str:
    # Padding keeps the source's line numbers those of the .test file, for diagnostics.
    source = "\n" * case.line + "\n".join(case.source) + "\n"
    name = f"{tf.path.relative_to(ROOT).as_posix()}"
    try:
        comp = driver.compile_source(source, name, driver.Options(stop=STAGES[stage], index32=False))
    except CompileError as err:
        diagnostics = render_all(err.diagnostics)
    else:
        verify_program(comp.program)
        return pretty_program(comp.program)
    pytest.fail(f"case `{case.name}` does not compile:\n{diagnostics}", pytrace=False)


PARSED = [parse_test_file(path) for path in FILES]
PARAMS = [pytest.param(tf, case, id=f"{tf.path.stem}::{case.name}")
          for tf in PARSED for case in tf.cases]


@pytest.mark.parametrize("tf, case", PARAMS)
def test_mir_golden(tf: GoldenFile, case: Case, bless: bool) -> None:
    actual = {stage: compile_case(tf, case, stage) for stage in case.outputs}
    if bless:
        changed = False
        for stage, text in actual.items():
            lines = text.rstrip("\n").splitlines()
            if trimmed(case.outputs[stage]) != trimmed(lines):
                case.outputs[stage] = lines
                changed = True
        if changed:
            write_test_file(tf)   # the whole file, with every case's current sections
        return
    for stage, text in actual.items():
        assert text.rstrip("\n") == trimmed(case.outputs[stage]), \
            f"[out{'' if stage == 'mir' else ' ' + stage}] of case `{case.name}` differs"


def test_test_files_round_trip(tmp_path: Path) -> None:
    """Blessing rewrites a file through parse -> write; an unchanged file must come out
    byte-identical, or blessing would churn every file."""
    for tf in PARSED:
        copy = GoldenFile(tmp_path / tf.path.name, tf.header, tf.cases)
        write_test_file(copy)
        assert copy.path.read_text(encoding="utf-8") == tf.path.read_text(encoding="utf-8"), \
            f"{tf.path.name} is not in the blessed layout (one blank line between cases)"


def test_golden_suite_is_substantial() -> None:
    assert len(PARAMS) >= 30
    assert sum("mir-opt" in case.outputs for _, case in (p.values for p in PARAMS)) >= 5
