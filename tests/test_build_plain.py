"""Plain `oxidec build` command lines run without click (oxidec/host/argv.py,
oxidec/buildcmd.py): read exactly as click reads them, with the same outputs, diagnostics and
exit statuses, and without importing click."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oxidec import buildcmd, cli, driver
from oxidec.host import argv as plain_argv

ROOT = Path(__file__).resolve().parents[1]
KERNEL = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn scale(a: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = a[i] * 2.0; }
}
"""
WARNS = KERNEL + """#[kernel]
pub fn fill<T: Copy>(v: T, mut out: DisjointSlice<T>) {
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = v; }
}
"""
BROKEN = KERNEL.replace("* 2.0;", "* ;")


def test_arches_agree_with_the_driver():
    assert plain_argv.ARCHES == driver.ARCHES


def _click_reading(argv: list[str], monkeypatch) -> dict | None:
    """The keywords click's `build` passes on, or None when click rejects the line."""
    seen = {}

    def capture(*args):
        names = ("files", "output", "emit", "prefix", "line_info", "dep_only", "dep_write",
                 "dep_file", "dep_targets", "depfile", "no_cache", "arch", "opt_level",
                 "fmad", "no_fmad", "jobs")
        seen.update(zip(names, args))

    monkeypatch.setattr(cli, "build_command", capture)
    try:
        cli.main(argv, standalone_mode=False)
    except Exception:  # noqa: BLE001 -- click's usage errors
        return None
    return seen


def _plain_reading(argv: list[str], monkeypatch) -> dict | None:
    seen = {}
    monkeypatch.setattr(buildcmd, "run_process", lambda fn, **kw: seen.update(kw))
    buildcmd.plain_main(argv)
    return seen or None


@pytest.mark.parametrize("line", [
    "build k.rs",
    "build k.rs -o out.ptx",
    "build -o out.ptx k.rs --arch sm_90",
    "build k.rs --output=o.ptx --arch=sm_86 -O1",
    "build k.rs -O0 --no-cache",
    "build k.rs -O 1 -O 2 --arch sm_90 --arch sm_89",
    "build k.rs --no-fmad --no-line-info",
    "build k.rs --no-line-info --line-info -o -",
    "build --no-cache k.rs -o sub/k.ptx",
    "build k.rs -j 2", "build k.rs -j3 --jobs=1", "build --jobs 4 k.rs -O1",
])
def test_plain_lines_read_as_click_reads_them(line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.rs").write_text(KERNEL)
    argv = line.split()
    plain = _plain_reading(argv, monkeypatch)
    assert plain is not None, line
    assert plain == _click_reading(argv, monkeypatch)


@pytest.mark.parametrize("line", [
    "build", "check k.rs", "build k.rs --help", "build k.rs --emit header",
    "build k.rs --arch native", "build k.rs --arch sm_70", "build k.rs -O 3", "build k.rs -O3",
    "build a.rs k.rs", "build - -o k.ptx", "build k.rs -o", "build k.rs --fmad=false",
    "build k.rs -MD", "build k.rs -o --arch", "build k.cu", "build dir.rs", "build k.rs -- x",
    "build k.rs -ok.ptx", "build k.rs --output", "build k.rs -O=2",
    "build k.rs -j", "build k.rs -j -1", "build k.rs -jx", "build k.rs --jobs=",
])
def test_other_lines_are_left_to_click(line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.rs").write_text(KERNEL)
    (tmp_path / "dir.rs").mkdir()
    assert plain_argv.plain_build(line.split()) is None


def _oxidec(tmp: Path, *args: str, cache: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT),
               OXIDEC_CACHE_DIR=str(tmp / "cache") if cache else "off")
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, *args], cwd=tmp, capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.mark.parametrize("source, status", [(KERNEL, 0), (WARNS, 0), (BROKEN, 1)])
def test_same_results_with_and_without_click(source, status, tmp_path):
    """The plain path and click's (`--emit ptx` makes click read the line) write the same
    PTX and stderr and exit alike."""
    (tmp_path / "k.rs").write_text(source)
    plain = _oxidec(tmp_path, "-m", "oxidec.cli", "build", "k.rs", "-o", "a.ptx")
    full = _oxidec(tmp_path, "-m", "oxidec.cli", "build", "k.rs", "-o", "b.ptx",
                   "--emit", "ptx")
    assert plain.returncode == full.returncode == status, plain.stderr + full.stderr
    assert plain.stderr == full.stderr
    assert (source is WARNS) == ("warning" in plain.stderr)
    if status == 0:
        assert (tmp_path / "a.ptx").read_text() == (tmp_path / "b.ptx").read_text()
        assert ".entry scale" in (tmp_path / "a.ptx").read_text()
    else:
        assert not (tmp_path / "a.ptx").exists() and not (tmp_path / "b.ptx").exists()


def test_missing_input_is_a_usage_error(tmp_path):
    r = _oxidec(tmp_path, "-m", "oxidec", "build", "nope.rs", "-o", "a.ptx")
    assert r.returncode == 2
    assert r.stderr.startswith("error: cannot read `nope.rs`")
    assert not (tmp_path / "a.ptx").exists()


def test_plain_build_imports_no_click(tmp_path):
    (tmp_path / "k.rs").write_text(KERNEL)
    for module in ("oxidec", "oxidec.cli"):
        r = _oxidec(tmp_path, "-X", "importtime", "-m", module, "build", "k.rs", "--no-cache",
                    cache=True)
        assert r.returncode == 0, r.stderr
        imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines()
                    if line.startswith("import time:")}
        assert "oxidec.driver" in imported
        # (tempfile still comes with `import lark`: lark/__init__ imports its grammar compiler)
        assert not {"click", "numpy", "cuda", "oxidec.sim", "oxidec.runtime"} & imported, module
        assert (tmp_path / "k.ptx").read_text().count(".entry") == 1
