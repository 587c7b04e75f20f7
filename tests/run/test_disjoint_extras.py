"""`DisjointSlice` extras (issue 11): `get_mut_indexed()` (1-D and `Index2D<S>`),
`as_mut_ptr()`, `is_empty()`. On the simulator against NumPy, through ptxas, on the GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.sim import run_kernel

SRC = """
#[kernel]
pub fn indexed(x: &[u32], mut out: DisjointSlice<u32>, mut pos: DisjointSlice<u64>) {
    if let Some((slot, idx)) = out.get_mut_indexed() {
        *slot = x[idx.get()].wrapping_mul(3) ^ (out_empty_flag(x) << 31);
    }
    if let Some((p, i)) = pos.get_mut_indexed() {
        *p = i.get() as u64 * 7;
    }
}

#[device]
fn out_empty_flag(x: &[u32]) -> u32 {
    (x.len() == 0) as u32
}

#[kernel]
pub fn grid2d(mut m: DisjointSlice<f32, thread::Index2D<24>>, scale: f32) {
    if let Some((e, idx)) = m.get_mut_indexed() {
        *e = idx.get() as f32 * scale;
    }
}

#[kernel]
pub fn raw(mut out: DisjointSlice<u32>, mut empty: DisjointSlice<u32>, v: u32) {
    let n = out.len();
    let none = empty.is_empty() as u32;
    if thread::index_1d().get() == 0 {
        let p = out.as_mut_ptr();
        let mut k = 0;
        while k < n {
            unsafe { *p.add(k) = v ^ (k as u32) ^ (none << 30) ^ ((out.is_empty() as u32) << 29); }
            k += 1;
        }
    }
}
"""


def build(arch: str = "sm_80") -> driver.Compilation:
    try:
        return driver.compile_source(SRC, "extras.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def run(device, name, grid, block, args, module=None):
    if device == "sim":
        run_kernel(build().program, name, grid, block, args)
    else:
        getattr(module, name)[grid, block](*args, device="gpu")


def check_all(device, rng, module=None):
    n = int(rng.integers(300, 500))
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = np.full(n, 0xDEAD_BEEF, np.uint32)
    pos = np.full(n - 37, 0xDEAD_BEEF, np.uint64)  # shorter: the last threads get None
    run(device, "indexed", ((n + 127) // 128,), (128,), [x, out, pos], module)
    np.testing.assert_array_equal(out, x * np.uint32(3))
    np.testing.assert_array_equal(pos, np.arange(n - 37, dtype=np.uint64) * 7)

    rows = int(rng.integers(5, 9))
    m = np.full(rows * 24, np.nan, np.float32)
    scale = np.float32(rng.uniform(0.5, 2.0))
    # 32 columns of threads: those past column 23 get None; rows past the end too
    run(device, "grid2d", (1, (rows + 8) // 4), (32, 4), [m, scale], module)
    np.testing.assert_array_equal(m, np.arange(rows * 24, dtype=np.float32) * scale)

    v = np.uint32(rng.integers(0, 2**32))
    buf = np.full(int(rng.integers(10, 40)), 0xDEAD_BEEF, np.uint32)
    run(device, "raw", (1,), (32,), [buf, np.zeros(0, np.uint32), v], module)
    np.testing.assert_array_equal(buf, v ^ np.arange(buf.size, dtype=np.uint32) ^ (1 << 30))


def test_disjoint_extras_on_the_simulator(rng):
    check_all("sim", rng)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_disjoint_extras_assemble(arch, ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(build(arch).ptx)
    r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_disjoint_extras_on_gpu(rng):
    from oxidec.api import compile_source
    check_all("gpu", rng, compile_source(SRC, "extras.rs"))
