"""The `oxidec` command as a Makefile sees it: stable exit codes, outputs only on success,
no Python traceback on any input."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VECADD = ROOT / "samples" / "vecadd.rs"


def oxidec(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "oxidec.cli", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env=env, timeout=120)


def test_build_writes_ptx_and_depfile(tmp_path: Path) -> None:
    out, dep = tmp_path / "out" / "vecadd.ptx", tmp_path / "vecadd.d"
    r = oxidec("build", str(VECADD), "-o", str(out), "--depfile", str(dep), "--arch", "sm_90")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    text = out.read_text()
    assert ".target sm_90" in text and ".visible .entry vecadd(" in text
    assert dep.read_text() == f"{out}: {VECADD}\n"


def test_errors_exit_1_and_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "bad.ptx"
    r = oxidec("build", str(ROOT / "tests/ui/unknown_variable.rs"), "-o", str(out))
    assert r.returncode == 1
    assert "error[E0425]: cannot find value `scael` in this scope" in r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [], "no temporary file is left behind"


def test_existing_output_survives_a_failed_build(tmp_path: Path) -> None:
    out = tmp_path / "k.ptx"
    out.write_text("previous build")
    r = oxidec("build", str(ROOT / "tests/ui/unknown_variable.rs"), "-o", str(out))
    assert r.returncode == 1
    assert out.read_text() == "previous build"


@pytest.mark.parametrize("data", [b"", b"\x00\xff\xfe garbage \x80\x81", b"}}}}", b"fn",
                                  b"#[kernel] pub fn k( { ] )", "fn \u00e9\u00e8() {}".encode()])
def test_any_input_gives_diagnostics_not_tracebacks(tmp_path: Path, data: bytes) -> None:
    src = tmp_path / "input.rs"
    src.write_bytes(data)
    r = oxidec("build", str(src), "-o", str(tmp_path / "o.ptx"))
    assert r.returncode in (0, 1), r.stderr
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr
    if r.returncode == 1:
        assert "error" in r.stderr and "-->" in r.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert oxidec("build", str(tmp_path / "missing.rs")).returncode == 2
    assert oxidec("build", str(VECADD), "--arch", "sm_70").returncode == 2
    assert oxidec("frobnicate").returncode == 2
    assert oxidec("explain", "E9999").returncode == 2


def test_check_writes_nothing(tmp_path: Path) -> None:
    r = oxidec("check", str(VECADD), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("emit, marker", [("ast", "SourceUnit"), ("mir", "fn vecadd("),
                                          ("mir-opt", "fn vecadd("), ("ptx", ".entry vecadd")])
def test_emit_stops_at_each_phase(emit: str, marker: str) -> None:
    r = oxidec("build", str(VECADD), "--emit", emit, "-o", "-")
    assert r.returncode == 0, r.stderr
    assert marker in r.stdout


def test_emit_cubin(tmp_path: Path, ptxas) -> None:
    out = tmp_path / "v.cubin"
    r = oxidec("build", str(VECADD), "--emit", "cubin", "--arch", "sm_90", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:4] == b"\x7fELF"


def test_explain_every_code() -> None:
    from oxidec.codes import CODES
    for code in ("E0308", "OX0004"):
        r = oxidec("explain", code)
        assert r.returncode == 0
        assert r.stdout.startswith(f"{code}: {CODES[code]}")


@pytest.mark.parametrize("flags, fma", [((), True), (("--fmad=false",), False),
                                        (("--no-fmad",), False), (("--fmad", "true"), True)])
def test_fmad_flag(flags, fma: bool) -> None:
    r = oxidec("build", str(ROOT / "samples" / "saxpy.rs"), "-o", "-", *flags)
    assert r.returncode == 0, r.stderr
    assert ("fma.rn.f32" in r.stdout) == fma


def test_run_takes_an_enum_argument_in_rust_syntax() -> None:
    sample = ROOT / "samples" / "activation.rs"
    r = oxidec("run", str(sample), "-k", "activate", "--sim", "--arg", "x=arange:f32:8",
               "--arg", "act=Activation::HardTanh { lo: -0.5, hi: 2.5 }", "--arg",
               "y=zeros:f32:8")
    assert r.returncode == 0, r.stderr
    assert "[0 1 2 2.5 2.5 2.5 2.5 2.5]" in r.stdout
    r = oxidec("run", str(sample), "-k", "activate", "--sim", "--arg", "x=arange:f32:8",
               "--arg", "act=Sigmoid", "--arg", "y=zeros:f32:8")
    assert r.returncode == 2
    assert "`Activation` has no variant `Sigmoid`" in r.stderr
