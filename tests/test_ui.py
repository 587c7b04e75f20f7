"""Golden diagnostics: every tests/ui/NAME.rs compiles to exactly tests/ui/NAME.stderr.

An empty or missing .stderr means the program must compile cleanly (the accepted-program
cases). Regenerate after a deliberate change with `pytest tests/test_ui.py --bless`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

ROOT = Path(__file__).resolve().parents[1]
UI = ROOT / "tests" / "ui"
CASES = sorted(UI.glob("*.rs"))


def diagnostics_text(path: Path) -> str:
    name = path.relative_to(ROOT).as_posix()
    try:
        comp = driver.compile_source(path.read_text(encoding="utf-8"), name)
    except CompileError as err:
        return render_all(err.diagnostics)
    return render_all(comp.diagnostics)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_ui(case: Path, request) -> None:
    actual = diagnostics_text(case)
    expected_path = case.with_suffix(".stderr")
    if request.config.getoption("--bless", default=False):
        if actual:
            expected_path.write_text(actual, encoding="utf-8")
        elif expected_path.exists():
            expected_path.unlink()
        return
    expected = expected_path.read_text(encoding="utf-8") if expected_path.exists() else ""
    assert actual == expected


def test_ui_suite_is_substantial() -> None:
    failing = [c for c in CASES if c.with_suffix(".stderr").exists()]
    assert len(failing) >= 25
