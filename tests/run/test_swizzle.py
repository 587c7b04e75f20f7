"""`Swizzle::<B, M, S>::apply` / `undo` (issue 11): the XOR swizzle of shared-memory
offsets, a transpose through a swizzled shared tile, and the compile error for a swizzle
that is not an involution. On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::swizzle::Swizzle;
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

const DIM: usize = 32;

#[kernel]
pub fn transpose(input: &[f32], mut out: DisjointSlice<f32>, mut offs: DisjointSlice<u32>) {
    static mut TILE: SharedArray<f32, 1024> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    unsafe {
        TILE[Swizzle::<5, 0, 5>::apply(ty * DIM + tx)] = input[ty * DIM + tx];
    }
    thread::sync_threads();
    let k = ty * DIM + tx;
    unsafe {
        *out.get_unchecked_mut(k) = TILE[Swizzle::<5, 0, 5>::apply(tx * DIM + ty)];
        let a = cuda_device::swizzle::Swizzle::<3, 4, 7>::apply(k * 37);
        *offs.get_unchecked_mut(k) = (a as u32) ^ ((Swizzle::<2, 9, 3>::undo(a) as u32) << 16);
    }
}
"""


def swz(x, b, m, s):
    return x ^ (((x >> s) & ((1 << b) - 1)) << m)


def run(device, rng):
    x = rng.standard_normal(1024).astype(np.float32)
    out = np.full(1024, np.nan, np.float32)
    offs = np.full(1024, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "swz.rs").transpose[(1,), (32, 32)](x, out, offs, device=device)
    k = np.arange(1024)
    a = swz(k * 37, 3, 4, 7)
    want_offs = (a ^ (swz(a, 2, 9, 3) << 16)).astype(np.uint32)
    return (out, offs), (x.reshape(32, 32).T.reshape(-1), want_offs)


def test_swizzle_on_the_simulator(rng):
    (out, offs), (want, want_offs) = run("sim", rng)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(offs, want_offs)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_swizzle_assembles(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "swz.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    assemble(ptx, arch)


def test_a_swizzle_that_is_not_an_involution_is_an_error():
    with pytest.raises(CompileError) as err:
        driver.compile_source(SRC.replace("Swizzle::<3, 4, 7>", "Swizzle::<3, 4, 5>"), "swz.rs",
                              driver.Options())
    text = render_all(err.value.diagnostics)
    assert "E0080" in text and "`Swizzle<3, 4, 5>` is not an involution" in text


@pytest.mark.gpu
def test_swizzle_on_gpu(rng):
    (out, offs), (want, want_offs) = run("gpu", rng)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(offs, want_offs)
