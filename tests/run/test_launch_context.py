"""`#[kernel(launch_context = NAME)]` with `thread::index_1d_u32(NAME)` and
`coord_2d_u32(NAME)` (issue 11): 32-bit thread coordinates. Simulator against NumPy, ptxas
for sm_80 and sm_90, GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
#[kernel(launch_context = ctx)]
#[launch_contract(coordinates = u32)]
pub fn flat(x: &[u32], mut out: DisjointSlice<u32>) {
    let t = thread::index_1d_u32(ctx);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = x[t.get() as usize].wrapping_mul(3) ^ t.get();
    }
}

#[kernel(launch_context = launch)]
pub fn grid(width: u32, height: u32, out: *mut u32) {
    let c = thread::coord_2d_u32(launch);
    if c.row() < height && c.col() < width {
        unsafe { *out.add((c.row() * width + c.col()) as usize) = c.row() * 1000 + c.col(); }
    }
}
"""


def check(device, rng, module):
    n = int(rng.integers(300, 700))
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = np.full(n, 0xDEAD_BEEF, np.uint32)
    module.flat[((n + 127) // 128,), (128,)](x, out, device=device)
    np.testing.assert_array_equal(out, (x * np.uint32(3)) ^ np.arange(n, dtype=np.uint32))
    w, h = int(rng.integers(20, 50)), int(rng.integers(10, 30))
    grid = np.full(w * h, 0xDEAD_BEEF, np.uint32)
    module.grid[((w + 15) // 16, (h + 7) // 8), (16, 8)](np.uint32(w), np.uint32(h), grid,
                                                          device=device)
    rows, cols = np.divmod(np.arange(w * h), w)
    np.testing.assert_array_equal(grid, (rows * 1000 + cols).astype(np.uint32))


def test_launch_context_on_the_simulator(rng):
    check("sim", rng, compile_source(SRC, "ctx.rs"))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_launch_context_assembles(arch, ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(compile_source(SRC, "ctx.rs", arch=arch).ptx)
    r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_launch_context_on_gpu(rng):
    check("gpu", rng, compile_source(SRC, "ctx.rs"))
