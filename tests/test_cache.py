"""The compile cache of `oxidec build` (oxidec/host/cache.py): a miss compiles and stores, a
hit writes the same outputs and prints the same warnings, an edit or other options miss,
`--no-cache` neither reads nor stores, the directory stays within its size bound, and a hit
is answered before click or the compiler is imported."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
WARNS = ROOT / "tests" / "ui" / "race_neighbour_read.rs"


def oxidec(cache: Path, *args: str, cwd: Path, extra_env: dict | None = None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", OXIDEC_CACHE_DIR=str(cache))
    env.update(extra_env or {})
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.glob("*/*") if p.is_file())


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "k.rs").write_bytes((SAMPLES / "saxpy.rs").read_bytes())
    (tmp_path / "w.rs").write_bytes(WARNS.read_bytes())
    return tmp_path


def test_miss_stores_and_hit_replays(work: Path) -> None:
    cache = work / "cache"
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", "-o", "a.ptx", cwd=work)
    assert r.returncode == 0, r.stderr
    assert len(entries(cache)) == 1
    first = (work / "a.ptx").read_bytes()
    (work / "a.ptx").write_text("poison")
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", "-o", "a.ptx", cwd=work)
    assert r.returncode == 0, r.stderr
    assert (work / "a.ptx").read_bytes() == first
    # the same through the full CLI (a flag the fast path does not take) and `python -m oxidec`
    (work / "a.ptx").write_text("poison")
    r = oxidec(cache, "-m", "oxidec", "build", "k.rs", "-o", "a.ptx", "--line-info", cwd=work)
    assert r.returncode == 0, r.stderr
    assert (work / "a.ptx").read_bytes() == first
    assert len(entries(cache)) == 1


def test_edit_and_options_miss(work: Path) -> None:
    cache = work / "cache"
    assert oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", cwd=work).returncode == 0
    before = (work / "k.ptx").read_text()
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", "--arch", "sm_90", cwd=work)
    assert r.returncode == 0 and len(entries(cache)) == 2
    assert ".target sm_90" in (work / "k.ptx").read_text()
    src = (work / "k.rs").read_text()
    (work / "k.rs").write_text(src.replace("pub fn saxpy", "pub fn saxpy_edited"))
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", cwd=work)
    assert r.returncode == 0 and len(entries(cache)) == 3
    after = (work / "k.ptx").read_text()
    assert "saxpy_edited" in after and "saxpy_edited" not in before


def test_warnings_replayed_on_a_hit(work: Path) -> None:
    cache = work / "cache"
    r1 = oxidec(cache, "-m", "oxidec.cli", "build", "w.rs", cwd=work)
    assert r1.returncode == 0 and "warning[OX0010]" in r1.stderr
    r2 = oxidec(cache, "-m", "oxidec.cli", "build", "w.rs", cwd=work)
    r3 = oxidec(cache, "-m", "oxidec.cli", "build", "w.rs", "--emit", "ptx", cwd=work)
    assert r2.returncode == 0 and r3.returncode == 0
    assert r2.stderr == r1.stderr and r3.stderr == r1.stderr
    assert len(entries(cache)) == 1


def test_errors_are_not_stored_and_no_cache_stores_nothing(work: Path) -> None:
    cache = work / "cache"
    (work / "bad.rs").write_text("fn broken( {\n")
    r = oxidec(cache, "-m", "oxidec.cli", "build", "bad.rs", cwd=work)
    assert r.returncode == 1 and not entries(cache)
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", "--no-cache", cwd=work)
    assert r.returncode == 0 and not entries(cache)
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", cwd=work,
               extra_env={"OXIDEC_CACHE_DIR": "off"})
    assert r.returncode == 0 and not cache.exists() or not entries(cache)


def test_size_bound(work: Path) -> None:
    cache = work / "cache"
    env = {"OXIDEC_CACHE_MAX_MB": "0.001"}  # ~1 KB: smaller than any one entry
    for arch in ("sm_80", "sm_90"):
        r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", "--arch", arch, cwd=work,
                   extra_env=env)
        assert r.returncode == 0, r.stderr
    assert len(entries(cache)) <= 1


def test_size_bound_counts_the_start_up_files(work: Path) -> None:
    """The files other modules keep in the cache directory to start faster (one per
    installed copy of the compiler) are within the bound too; other files are left."""
    cache = work / "cache"
    cache.mkdir(mode=0o700)
    stale = cache / "modules-cpython-311-0000-1-0123456789abcdef.marshal"
    stale.write_bytes(os.urandom(3 << 20))
    other = cache / "notes.txt"
    other.write_bytes(os.urandom(3 << 20))
    for path in (stale, other):
        os.utime(path, (1, 1))  # older than anything a build writes
    r = oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", cwd=work,
               extra_env={"OXIDEC_CACHE_MAX_MB": "2"})
    assert r.returncode == 0, r.stderr
    assert not stale.exists() and other.exists() and len(entries(cache)) == 1


def test_hit_imports_neither_click_nor_the_compiler(work: Path) -> None:
    cache = work / "cache"
    assert oxidec(cache, "-m", "oxidec.cli", "build", "k.rs", cwd=work).returncode == 0
    r = oxidec(cache, "-X", "importtime", "-m", "oxidec.cli", "build", "k.rs", cwd=work)
    assert r.returncode == 0
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines()
                if line.startswith("import time:")}
    assert "oxidec.host.cache" in imported
    assert not {"click", "oxidec.driver", "lark", "numpy"} & imported


def test_build_path_imports_no_numpy_or_cuda() -> None:
    code = ("import sys, oxidec.cli, oxidec.driver; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'cuda')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
