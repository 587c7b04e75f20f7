"""`cuda_device::view`'s read-only matrix views (issue 11): `MatrixView32::new(slice,
stride)`, its checked `row(r, cols)` / `col(c, rows)` views, their `get`, `len`, `stride`,
`empty()`, `.iter()` (with adapters), `zip_exact` and the `ZipView32` iterator (a `for` loop
and adapters). On the simulator against a Python reference of the checks, through ptxas,
and on the GPU.

The checks (oxidec's reading of cuda-oxide's "checked once" views; device_api/views.py):
a row exists when `cols <= stride` and `r * stride + cols <= len`; a column when
`c < stride` and its last element `c + (rows - 1) * stride < len` (any `c < stride` for 0
rows); `zip_exact` when the lengths are equal; `get(i)` when `i < len`.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::view::{ColView32, MatrixView32, RowView32};
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn matrix(a: &[f32], stride: u32, q: u32, mut vals: DisjointSlice<f32>,
              mut flags: DisjointSlice<u32>) {
    let t = thread::index_1d().get() as u32;
    let m = MatrixView32::new(a, stride);
    let (r, cols) = (t % 7, (t / 7) % (stride + 2));
    let (c, rows) = (t % (stride + 1), (t / 3) % 8);
    let row = m.row(r, cols);
    let col = m.col(c, rows);
    let mut f = row.is_some() as u32 | (col.is_some() as u32) << 1;
    let rv = row.unwrap_or(RowView32::empty());
    let cv = col.unwrap_or(ColView32::empty());
    let mut dot = -1000.0f32;
    if let Some(z) = rv.zip_exact(cv) {
        f |= 4;
        dot = 0.0;
        for (x, y) in z {
            dot += x * y;
        }
    }
    let diff = match rv.zip_exact(cv) {
        Some(z) => z.map(|(x, y)| x - y).fold(0.0f32, |s, d| s + d * d),
        None => -1.0,
    };
    let rsum: f32 = rv.iter().enumerate().map(|(k, v)| v * (k + 1) as f32).sum();
    let csum: f32 = cv.iter().rev().take(3).sum();
    let last = rv.iter().rev().take(1).fold(-5.0f32, |_, v| v);
    let rget = rv.get(q).unwrap_or(-100.0);
    let cget = cv.get(q).unwrap_or(-200.0);
    f |= (rv.len() << 8) | (cv.len() << 16) | (cv.stride() << 24);
    f |= ((m.len() as u32 == a.len() as u32 && m.stride() == stride && !m.is_empty()
           && rv.is_empty() == (rv.len() == 0)) as u32) << 3;
    let base = t as usize * 7;
    unsafe {
        if (t as usize) * 7 + 7 <= vals.len() && (t as usize) < flags.len() {
            *vals.get_unchecked_mut(base) = dot;
            *vals.get_unchecked_mut(base + 1) = diff;
            *vals.get_unchecked_mut(base + 2) = rsum;
            *vals.get_unchecked_mut(base + 3) = csum;
            *vals.get_unchecked_mut(base + 4) = last;
            *vals.get_unchecked_mut(base + 5) = rget;
            *vals.get_unchecked_mut(base + 6) = cget;
            *flags.get_unchecked_mut(t as usize) = f;
        }
    }
}
"""


def reference(a: np.ndarray, stride: int, q: int, threads: int):
    a64 = a.astype(np.float64)
    vals = np.zeros((threads, 7), np.float64)
    flags = np.zeros(threads, np.uint32)
    n = a.size
    for t in range(threads):
        r, cols = t % 7, (t // 7) % (stride + 2)
        c, rows = t % (stride + 1), (t // 3) % 8
        row_ok = cols <= stride and r * stride + cols <= n
        col_ok = c < stride and (rows == 0 or c + (rows - 1) * stride < n)
        rv = a64[r * stride:r * stride + cols] if row_ok else np.zeros(0)
        cv = a64[c:c + rows * stride:stride][:rows] if col_ok else np.zeros(0)
        f = int(row_ok) | int(col_ok) << 1
        zipped = rv.size == cv.size
        f |= 4 * zipped
        f |= rv.size << 8 | cv.size << 16 | (stride if col_ok else 0) << 24 | 1 << 3
        vals[t] = [float(np.dot(rv, cv)) if zipped else -1000.0,
                   float(np.sum((rv - cv) ** 2)) if zipped else -1.0,
                   float(np.dot(rv, np.arange(1, rv.size + 1))),
                   float(np.sum(cv[::-1][:3])),
                   float(rv[-1]) if rv.size else -5.0,
                   float(rv[q]) if q < rv.size else -100.0,
                   float(cv[q]) if q < cv.size else -200.0]
        flags[t] = f
    return vals, flags


def run(device: str, rng, stride: int = 5, n: int = 33, threads: int = 96):
    m = compile_source(SRC, "matrix_views.rs", arch="sm_80")
    a = rng.uniform(-2, 2, n).astype(np.float32)
    q = int(rng.integers(0, 4))
    vals = rng.uniform(-9, 9, threads * 7).astype(np.float32)  # poison
    flags = rng.integers(0, 2**32, threads, dtype=np.uint32)
    m.matrix[(threads // 32,), (32,)](a, stride, q, vals, flags, device=device)
    want_vals, want_flags = reference(a, stride, q, threads)
    return vals.reshape(threads, 7), flags, want_vals, want_flags


def check(got_vals, got_flags, want_vals, want_flags):
    bad = np.flatnonzero(got_flags != want_flags)
    assert bad.size == 0, f"threads {bad[:5].tolist()}: flags {got_flags[bad[:5]]} want " \
                          f"{want_flags[bad[:5]]}"
    np.testing.assert_allclose(got_vals, want_vals, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("stride, n", [(5, 33), (4, 40), (1, 9), (8, 3)])
def test_matrix_views_on_the_simulator(stride, n, rng):
    check(*run("sim", rng, stride, n))


def test_matrix_views_assemble(ptxas, tmp_path):
    for arch in ("sm_80", "sm_90"):
        try:
            ptx = driver.compile_source(SRC, "mv.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        path = tmp_path / "k.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


def test_empty_view_needs_its_type():
    src = """
use cuda_device::view::RowView32;
use cuda_device::{kernel, thread};
#[kernel]
pub fn k(out: *mut u32) {
    let r = RowView32::empty();
    unsafe { *out = r.len() + thread::threadIdx_x(); }
}
"""
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "e.rs", driver.Options(arch="sm_80"))
    text = render_all(err.value.diagnostics)
    assert "error[E0282]: type annotations needed" in text and "RowView32::<T>::empty()" in text


@pytest.mark.gpu
@pytest.mark.parametrize("stride, n", [(5, 33), (8, 3)])
def test_matrix_views_on_gpu(stride, n, rng):
    check(*run("gpu", rng, stride, n))
