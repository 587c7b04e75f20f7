"""PTX emitter: CHECK lines on hand-built MIR (tests/ptx/cases.py), and every case
assembled by ptxas for sm_80 and sm_90 (skipped when ptxas is missing)."""
from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oxidec.mir.syntax import Return
from oxidec.passes import contract_program
from oxidec.ptx import PtxEmitError, emit_program

HERE = Path(__file__).parent / "ptx"
sys.path.insert(0, str(HERE))
_spec = importlib.util.spec_from_file_location("ptx_cases", HERE / "cases.py")
cases = importlib.util.module_from_spec(_spec)
sys.modules["ptx_cases"] = cases
_spec.loader.exec_module(cases)

PTXAS = shutil.which("ptxas") or ("/usr/local/bin/ptxas"
                                  if Path("/usr/local/bin/ptxas").exists() else None)
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not installed")
NAMES = sorted(cases.CASES)


def emit_with(program, options: dict) -> str:
    """Emit as the driver does: contraction (on unless fmad=False) is a MIR pass first."""
    options = dict(options)
    if options.pop("fmad", True):
        contract_program(program)
    return emit_program(program, **options)


def emit(name: str) -> tuple[object, str]:
    case = cases.CASES[name]()
    return case, emit_with(case.program, case.options)


def assemble(text: str, arch: str, tmp_path: Path) -> str:
    src = tmp_path / f"{arch}.ptx"
    src.write_text(text)
    proc = subprocess.run([PTXAS, "-v", f"-arch={arch}", str(src), "-o", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr + "\n" + _numbered(text)
    return proc.stderr + proc.stdout


def _numbered(text: str) -> str:
    return "\n".join(f"{n:4} {line}" for n, line in enumerate(text.splitlines(), 1))


def check_lines(text: str, checks: list[str], absent: list[str]) -> None:
    """Each CHECK must occur after the previous one (later on its line, or below it);
    no CHECK-NOT may occur on any line."""
    pos = 0
    for pattern in checks:
        found = text.find(pattern, pos)
        assert found >= 0, f"CHECK not found (in order): {pattern!r}\n{_numbered(text)}"
        pos = found + len(pattern)
    for pattern in absent:
        hits = [line for line in text.splitlines() if pattern in line]
        assert not hits, f"CHECK-NOT {pattern!r} matched {hits[0]!r}\n{_numbered(text)}"


@pytest.mark.parametrize("name", NAMES)
def test_checks(name):
    case, text = emit(name)
    check_lines(text, case.checks, case.absent)


@pytest.mark.parametrize("name", NAMES)
def test_deterministic(name):
    assert emit(name)[1] == emit(name)[1]


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("name", NAMES)
def test_assembles(name, arch, tmp_path):
    case, text = emit(name)
    if case.options.get("arch", arch) != arch:
        text = text.replace(f".target {case.options['arch']}", f".target {arch}")
    info = assemble(text, arch, tmp_path)
    frames = [int(n) for n in re.findall(r"(\d+) bytes stack frame", info)]
    spills = [int(n) for n in re.findall(r"(\d+) bytes spill", info)]
    if not case.stack_ok:
        assert not any(frames) and not any(spills), info


def test_versions_by_target():
    case = cases.CASES["vecadd"]()
    assert ".version 8.0" in emit_program(case.program, "sm_90a")
    for arch in ("sm_80", "sm_86", "sm_89", "sm_90"):
        assert ".version 7.8" in emit_program(case.program, arch)


def test_fma_flag_changes_only_contraction():
    case = cases.CASES["saxpy_contracts_to_fma"]()
    off = emit_with(case.program, {"fmad": False})
    on = emit_with(case.program, {"fmad": True})
    assert "fma.rn.f32" in on and "fma" not in off


def test_unsupported_construct_reports_function_and_span():
    from mirbuild import Fn, program

    f = Fn("k")
    bb = f.block()
    f.effect(bb, "printf")
    f.term(bb, Return)
    prog = program(f)
    with pytest.raises(PtxEmitError) as info:
        emit_program(prog)
    assert "in `k`" in str(info.value) and "printf" in str(info.value)
    assert info.value.span is prog.bodies[0].blocks[0].statements[0].span
