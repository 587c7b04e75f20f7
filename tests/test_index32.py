"""passes/index32.py (with narrow32.py, counters32.py, index_ranges.py): a kernel's index
arithmetic in 32 bits behind one uniform test of its lengths, usize parameters and grid;
the original 64-bit body runs otherwise."""
from __future__ import annotations

import re

import numpy as np
import pytest

from oxidec import api, driver
from oxidec.mir.syntax import Intrinsic, SwitchInt
from oxidec.passes import index_ranges as R
from oxidec.passes.narrow32 import LIMIT

STENCIL = """
#[kernel]
#[launch_contract(block = (16, 16, 1), requires = (img.len() == rows * cols, out.len() == rows * cols))]
pub fn k(img: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize) {
    let c = thread::blockIdx_x() as usize * 16 + thread::threadIdx_x() as usize;
    let r = thread::blockIdx_y() as usize * 16 + thread::threadIdx_y() as usize;
    if r < rows && c < cols {
        let mut acc = 0.0f32;
        for j in 0..3 {
            let cc = (c + j).wrapping_sub(1);
            if cc < cols && r >= 1 {
                acc += img[(r - 1) * cols + cc] * (j as f32 + 1.0);
            }
        }
        unsafe { *out.get_unchecked_mut(r * cols + c) = acc + img[r * cols + c]; }
    }
}
"""

# a usize parameter that is not a length: huge values take the 64-bit version
SHIFTED = """
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>, big: usize) {
    let t = thread::index_1d();
    let i = t.get();
    if let Some(o) = out.get_mut(t) {
        if i + big >= big + 1 && i < x.len() {
            // a loop the passes keep (its trip count is data, here 1): a loop-free kernel
            // this small keeps one version (index32.MIN_SITES_LOOP_FREE)
            let mut v = 0.0f32;
            let mut r = 0usize;
            while r < 1 + x.len() % 2 {
                v = x[i] + x[(i + big) - big - 1];
                r += 1;
            }
            *o = v;
        } else {
            *o = -1.0;
        }
    }
}
"""


def compile_(src: str) -> driver.Compilation:
    return driver.compile_source(src, "k.rs", driver.Options(line_info=False))


def stencil_reference(img: np.ndarray) -> np.ndarray:
    """out[r][c] = img[r][c] + sum over j of (j + 1) img[r - 1][c + j - 1], zero outside."""
    rows, cols = img.shape
    padded = np.zeros((rows + 1, cols + 2), np.float64)
    padded[1:, 1:-1] = img
    acc = sum((j + 1.0) * padded[:-1, j:j + cols] for j in range(3))
    return (acc + img).astype(np.float32)


def test_version_test_at_entry() -> None:
    comp = compile_(STENCIL)
    body = next(b for b in comp.program.bodies if b.name == "k")
    term = body.blocks[0].terminator
    assert isinstance(term, SwitchInt)  # the uniform test: lengths, rows, cols, the grid
    names = {s.rvalue.name for s in body.blocks[0].statements
             if isinstance(s.rvalue, Intrinsic)}
    assert names == {"nctaid.x"}  # ntid.x is the contract's 16


def test_stencil_ptx_is_32_bit_in_one_version() -> None:
    ptx = compile_(STENCIL).ptx
    assert ptx.count(".entry") == 1
    # 32-bit compares of the row and column against rows and cols; rows' element
    # addresses widened once (mul.wide / cvt) from 32-bit sums
    assert re.search(r"setp\.\w+\.u32", ptx)
    assert re.search(r"cvt\.s64\.s32|mul\.wide\.s32", ptx)  # the row's shared address
    assert re.search(r"mad\.lo\.[su]32|mul\.lo\.[su]32|add\.[su]32", ptx)


@pytest.mark.parametrize("shape", [(33, 47), (16, 16), (5, 70)])
def test_stencil_on_simulator(shape, rng) -> None:
    rows, cols = shape
    img = rng.standard_normal(shape).astype(np.float32)
    out = np.full(shape, np.nan, np.float32)
    module = api.compile_source(STENCIL, "k.rs")
    grid = ((cols + 15) // 16, (rows + 15) // 16, 1)
    module.k[grid, (16, 16, 1)](img.ravel(), out.reshape(-1), rows, cols, device="sim")
    np.testing.assert_allclose(out, stencil_reference(img), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("big", [3, LIMIT, LIMIT + 1, 1 << 40])
def test_large_parameter_takes_the_64_bit_version(big, rng) -> None:
    assert "2147479551" in compile_(SHIFTED).ptx  # the kernel has both versions
    n = 300
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    module = api.compile_source(SHIFTED, "k.rs")
    module.k[((n + 127) // 128, 1, 1), (128, 1, 1)](x, out, big, device="sim")
    want = np.full(n, -1.0, np.float32)
    want[1:] = x[1:] + x[:-1]
    np.testing.assert_array_equal(out, want)


@pytest.mark.gpu
@pytest.mark.parametrize("big", [3, 1 << 40])
def test_both_versions_on_gpu(big, rng) -> None:
    n = 5000
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    module = api.compile_source(SHIFTED, "k.rs")
    module.k[((n + 127) // 128, 1, 1), (128, 1, 1)](x, out, big)
    want = np.full(n, -1.0, np.float32)
    want[1:] = x[1:] + x[:-1]
    np.testing.assert_array_equal(out, want)


@pytest.mark.gpu
def test_stencil_on_gpu(rng) -> None:
    rows, cols = 300, 517
    img = rng.standard_normal((rows, cols)).astype(np.float32)
    out = np.full((rows, cols), np.nan, np.float32)
    module = api.compile_source(STENCIL, "k.rs")
    grid = ((cols + 15) // 16, (rows + 15) // 16, 1)
    module.k[grid, (16, 16, 1)](img.ravel(), out.reshape(-1), rows, cols)
    np.testing.assert_allclose(out, stencil_reference(img), rtol=1e-6, atol=1e-6)


def test_ranges() -> None:
    # c - 1 for c in [0, 10]: the bits of -1 when c = 0
    assert R.binary("sub", (0, 10), (1, 1), R.IntTy(64, False)) == (-1, 9)
    assert R.unsigned_value((-1, 9), 64) is None
    assert R.signed_value((-1, 9), 32) == (-1, 9)
    # x < y with y in [0, 100]: x's unsigned value in [0, 99]; with what was known
    assert R.below((0, 100), 64, strict=True) == (0, 99)
    assert R.meet((-1, 50), (0, 99), 64) == (0, 50)
    # intervals more than 2^64 apart may name the same bits: the newer fact is kept
    assert R.meet((1 << 64, (1 << 64) + 5), (0, 99), 64) == (0, 99)
    assert R.special_register("tid.x", (16, 16, 1)) == (0, 15)
    assert R.special_register("ctaid.y", None) == (0, 65534)


ELEMENTWISE = """
#[kernel]
pub fn k(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let i = t.get();
    if let Some(o) = c.get_mut(t) {
        *o = a[i] * b[i];
    }
}
"""


def test_a_loop_free_kernel_with_few_sites_keeps_one_version(rng) -> None:
    # its copy would narrow 5 sites: the entry test costs about what they save (measured on
    # the H200: vecadd 0.270 ms with both versions, 0.247 with one); the stencil above,
    # loop-free once its taps are unrolled, narrows far more and keeps both
    from oxidec.passes.index32 import MIN_SITES_LOOP_FREE
    assert MIN_SITES_LOOP_FREE > 5
    assert "2147479551" not in compile_(ELEMENTWISE).ptx
    assert "2147479551" in compile_(STENCIL).ptx
    n = 777
    a, b = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    out = np.full(n, np.nan, np.float32)
    api.compile_source(ELEMENTWISE, "k.rs").k[(7, 1, 1), (128, 1, 1)](a, b, out, device="sim")
    np.testing.assert_array_equal(out, a * b)
