"""Shared memory extras (issue 11): `SharedArray<T, N, ALIGN>` (`.align ALIGN`), module-level
shared arrays, `DynamicSharedArray::<T, ALIGN>::get_raw()` and `offset(bytes)`. On the
simulator against NumPy, through ptxas for sm_80 and sm_90, on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
static mut STAGE: SharedArray<f32, 128, 128> = SharedArray::UNINIT;

#[kernel]
pub fn stage(x: &[f32], mut out: DisjointSlice<f32>, mut bytes: DisjointSlice<u32>) {
    static mut FLAGS: SharedArray<u8, 100, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let i = thread::index_1d().get();
    unsafe {
        STAGE[t] = if i < x.len() { x[i] } else { 0.0 };
        if t < 100 {
            FLAGS[t] = (t % 7) as u8;
        }
    }
    // dynamic shared memory: 128 u32 after 64 bytes of scratch, by byte offset
    let raw = DynamicSharedArray::<u8, 128>::get_raw();
    let words = DynamicSharedArray::<u32>::offset(64);
    unsafe {
        if t < 64 {
            *raw.add(t) = 3 + t as u8;
        }
        *words.add(t) = t as u32 * 5;
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = unsafe { STAGE[127 - t] } + unsafe { FLAGS[(t + 1) % 100] } as f32;
    }
    if let Some(b) = bytes.get_mut(thread::index_1d()) {
        *b = unsafe { *words.add(127 - t) + *raw.add((t + 5) % 64) as u32 };
    }
}
"""


def expected(x):
    n = x.size
    blocks = (n + 127) // 128
    xp = np.zeros(blocks * 128, np.float32)
    xp[:n] = x
    t = np.arange(128)
    flags = (np.arange(100) % 7).astype(np.float32)
    out = np.concatenate([xp[b * 128:(b + 1) * 128][127 - t] + flags[(t + 1) % 100]
                          for b in range(blocks)])[:n]
    words = np.tile((127 - t) * 5 + 3 + (t + 5) % 64, blocks)[:n].astype(np.uint32)
    return out.astype(np.float32), words


def run(device, rng):
    module = compile_source(SRC, "shared.rs")
    n = int(rng.integers(300, 600))
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    b = np.full(n, 0xDEAD_BEEF, np.uint32)
    module.stage[((n + 127) // 128,), (128,), 64 + 128 * 4](x, out, b, device=device)
    want = expected(x)
    np.testing.assert_array_equal(out, want[0])
    np.testing.assert_array_equal(b, want[1])


def test_shared_extras_on_the_simulator(rng):
    run("sim", rng)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_shared_extras_ptx(arch, assemble):
    ptx = compile_source(SRC, "shared.rs", arch=arch).ptx
    assert ".shared .align 128 .b8 STAGE[512];" in ptx
    assert ".shared .align 64 .b8 stage$FLAGS[100];" in ptx
    assert ".extern .shared .align 128 .b8 dyn_smem[];" in ptx
    assemble(ptx, arch)


@pytest.mark.gpu
def test_shared_extras_on_gpu(rng):
    run("gpu", rng)
