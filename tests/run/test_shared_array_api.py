"""`SharedArray` methods and constants (issue 11): `as_ptr`, `as_mut_ptr`,
`SharedArray::as_raw_mut_ptr(&raw mut S)`, `SharedArray::<T, N, ALIGN>::len()` /
`is_empty()` / `alignment()` and `DynamicSharedArray::<T, ALIGN>::alignment()`. On the
simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::shared::DynamicSharedArray;
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

#[kernel]
pub fn shared(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u32, 64, 16> = SharedArray::UNINIT;
    static mut F: SharedArray<f64, 3> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let i = thread::index_1d();
    unsafe {
        let p = SharedArray::as_raw_mut_ptr(&raw mut S);
        *p.add(t) = x[i.get()];
        let q = S.as_mut_ptr();
        *q.add(t) ^= 0x55;
    }
    thread::sync_threads();
    let consts = SharedArray::<u32, 64, 16>::len() * 1000 + SharedArray::<u32, 64, 16>::alignment() * 10
        + SharedArray::<f64, 3>::alignment() + (SharedArray::<u8, 0>::is_empty() as usize) * 100000
        + (SharedArray::<u8, 5>::is_empty() as usize) * 1000000
        + DynamicSharedArray::<f32, 32>::alignment() * 10000000
        + (SharedArray::<f64, 3>::len() == 3) as usize;
    let first = unsafe { *S.as_ptr() };
    if let Some(o) = out.get_mut(i) {
        *o = unsafe { S[(t + 1) % 64] } ^ first.rotate_left(8) ^ ((consts as u32) << 1);
    }
}
"""


def run(device, rng, blocks=3):
    x = rng.integers(0, 2**32, blocks * 64, dtype=np.uint32)
    out = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "sa.rs").shared[(blocks,), (64,)](x, out, device=device)
    consts = 64 * 1000 + 16 * 10 + 8 + 100000 + 32 * 10000000 + 1
    s = (x ^ 0x55).reshape(blocks, 64)
    first = np.repeat(s[:, 0], 64)
    rot = ((first << 8) | (first >> 24)).astype(np.uint32)
    want = np.roll(s, -1, axis=1).reshape(-1) ^ rot ^ np.uint32((consts << 1) & 0xFFFFFFFF)
    return out, want


def test_shared_array_api_on_the_simulator(rng):
    out, want = run("sim", rng)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_shared_array_api_assembles(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "sa.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    assemble(ptx, arch)


@pytest.mark.gpu
def test_shared_array_api_on_gpu(rng):
    out, want = run("gpu", rng, blocks=8)
    np.testing.assert_array_equal(out, want)
