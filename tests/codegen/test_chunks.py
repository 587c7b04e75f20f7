"""`chunks_exact(n)` and `windows(n)` with a constant n make sub-slices of length n itself,
so indexing them below n needs no bounds check: the loop is the index loop (const_fold
folds `Len` of a `slice_from_parts(p, const n)`); `chunks(n)` keeps the check (its last
chunk may be shorter). The PTX assembles."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from oxidec import driver

SRC = """
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut s = 0.0f32;
    for c in x.METHOD(4) { s += c[0] * c[3]; }
    if let Some(o) = out.get_mut(idx) { *o = s; }
}
"""


def ptx_of(method: str) -> str:
    return driver.compile_source(SRC.replace("METHOD", method), "chunks.rs").ptx


@pytest.mark.parametrize("method", ["chunks_exact", "windows"])
def test_constant_chunks_need_no_bounds_checks(method: str) -> None:
    ptx = ptx_of(method)
    assert "index out of bounds" not in ptx, ptx
    assert "ld.global.nc.f32" in ptx


def test_chunks_keep_their_checks() -> None:
    assert "index out of bounds" in ptx_of("chunks")


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
@pytest.mark.parametrize("method", ["chunks_exact", "windows", "chunks"])
def test_chunk_loops_assemble(method: str, tmp_path) -> None:
    path = tmp_path / "c.ptx"
    path.write_text(ptx_of(method))
    proc = subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "c.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
