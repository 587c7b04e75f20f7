"""`DisjointSlice<T, Runtime2DIndex>` (issue 11): rows of a width the host binds at launch
(the Python API takes a 2-D array), `thread::index_2d_runtime(&s)`, the witness's
`row()`/`col()`, `get_mut` resolving a witness against the width of the slice it addresses
(one minted from a narrower slice writes a wider one), `row_width()`, `len()`, a witness
passed by value to a device function, and `DisjointSlice::from_raw_parts_with_space`. On the
simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all
from oxidec.runtime.errors import LaunchError

SRC = """
use cuda_device::thread::{Runtime2DIndex, ThreadIndex};
use cuda_device::{DisjointSlice, kernel, thread};

fn put(out: &mut DisjointSlice<u32, Runtime2DIndex>, at: ThreadIndex<Runtime2DIndex>, v: u32) {
    if let Some(o) = out.get_mut(at) {
        *o = v;
    }
}

#[kernel]
pub fn mix(narrow: DisjointSlice<u32, Runtime2DIndex>, mut wide: DisjointSlice<u32, Runtime2DIndex>,
           x: &[u32]) {
    let w = narrow.row_width();
    if let Some(i) = thread::index_2d_runtime(&narrow) {
        let v = x[i.row() * w as usize + i.col()] ^ ((wide.row_width() as u32) << 24)
            ^ ((wide.len() as u32) << 16);
        put(&mut wide, i, v);
    }
}

#[kernel]
pub unsafe fn scale(ptr: *mut f32, len: usize, row_width: u32, k: f32) {
    let mut grid = DisjointSlice::from_raw_parts_with_space(ptr, len, row_width);
    let Some(i) = thread::index_2d_runtime(&grid) else {
        return;
    };
    let r = i.row() as f32;
    if let Some(o) = grid.get_mut(i) {
        *o = *o * k + r;
    }
}
"""


def build(arch="sm_80"):
    try:
        return driver.compile_source(SRC, "r2d.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def run_mix(device, rng, nrows, ncols, wrows, wcols, grid, block):
    narrow = np.zeros((nrows, ncols), np.uint32)
    wide = np.full((wrows, wcols), 0xDEAD_BEEF, np.uint32)
    x = rng.integers(0, 1 << 16, grid[1] * block[1] * ncols, dtype=np.uint32)  # every row
    m = compile_source(SRC, "r2d.rs")
    m.mix[grid, block](narrow, wide, x, device=device)
    want = np.full((wrows, wcols), 0xDEAD_BEEF, np.uint32)
    rows = grid[1] * block[1]
    for r in range(rows):
        for c in range(min(ncols, grid[0] * block[0])):
            k = r * wcols + c  # the narrow witness, resolved against the wide width
            if c < wcols and k < wide.size:
                want.reshape(-1)[k] = int(x[r * ncols + c]) ^ (wcols << 24) ^ \
                    ((wide.size << 16) & 0xFFFFFFFF)
    return wide, want


@pytest.mark.parametrize("shape", [(5, 7, 6, 9, (2, 2), (8, 4)), (9, 33, 4, 40, (3, 3), (16, 4)),
                                   (6, 12, 20, 5, (1, 2), (16, 8))])
def test_runtime_width_slices_on_the_simulator(shape, rng):
    got, want = run_mix("sim", rng, *shape)
    np.testing.assert_array_equal(got, want)


def run_scale(device, rng, rows, width):
    a = rng.standard_normal(rows * width).astype(np.float32)
    out = a.copy()
    m = compile_source(SRC, "r2d.rs")
    m.scale[((width + 7) // 8, (rows + 3) // 4), (8, 4)](out, a.size, width, 2.5, device=device)
    # `*o * k + r` contracts to one fma: the product is exact in f64, the sum rounds once
    # there and once to f32 (a double rounding only on an exact f32 midpoint: never here)
    want = (a.reshape(rows, width).astype(np.float64) * 2.5
            + np.arange(rows, dtype=np.float64)[:, None]).astype(np.float32).reshape(-1)
    return out, want


def test_from_raw_parts_with_space_on_the_simulator(rng):
    out, want = run_scale("sim", rng, 13, 11)
    np.testing.assert_array_equal(out, want)


def test_a_runtime_width_slice_needs_a_2d_array(rng):
    m = compile_source(SRC, "r2d.rs")
    with pytest.raises(LaunchError, match="expected a 2-D array"):
        m.mix[(1, 1), (8, 8)](np.zeros(16, np.uint32), np.zeros((4, 4), np.uint32),
                              np.zeros(64, np.uint32), device="sim")


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_runtime_width_slices_assemble(arch, assemble):
    ptx = build(arch).ptx
    assert ".param .align 8 .b8 mix_param_0[24]" in ptx  # cuda-oxide's {ptr, len, row_width}
    assemble(ptx, arch)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(5, 7, 6, 9, (2, 2), (8, 4)), (40, 70, 30, 100, (5, 10), (16, 4))])
def test_runtime_width_slices_on_gpu(shape, rng):
    got, want = run_mix("gpu", rng, *shape)
    np.testing.assert_array_equal(got, want)


@pytest.mark.gpu
def test_from_raw_parts_with_space_on_gpu(rng):
    out, want = run_scale("gpu", rng, 37, 29)
    np.testing.assert_array_equal(out, want)
