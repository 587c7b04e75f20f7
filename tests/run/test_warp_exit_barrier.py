"""A barrier after an early `return` of whole warps (OX0009 accepts it: PTX `exit` releases
a barrier that waits only on exited threads). The exiting warps must not hang the block,
and the remaining ones see each other's shared-memory writes."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
#[kernel]
pub fn reverse_first_warps(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut TILE: SharedArray<u32, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    if t >= 64 {
        return;
    }
    let base = thread::blockIdx_x() as usize * 64;
    unsafe {
        TILE[t] = x[base + t] ^ 0x5a5a;
    }
    thread::sync_threads();
    unsafe {
        *out.get_unchecked_mut(base + t) = TILE[63 - t] + t as u32;
    }
}
"""


def run(device, rng):
    module = compile_source(SRC, "warp_exit.rs")
    blocks = int(rng.integers(2, 6))
    x = rng.integers(0, 2**31, blocks * 64, dtype=np.uint32)
    out = np.full(blocks * 64, 0xDEAD_BEEF, np.uint32)
    module.reverse_first_warps[(blocks,), (160,)](x, out, device=device)
    t = np.arange(64, dtype=np.uint32)
    want = np.concatenate([(x[b * 64:(b + 1) * 64] ^ 0x5a5a)[63 - t] + t
                           for b in range(blocks)]).astype(np.uint32)
    np.testing.assert_array_equal(out, want)


def test_warp_exit_barrier_on_the_simulator(rng):
    run("sim", rng)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_warp_exit_barrier_ptx(arch, assemble):
    assemble(compile_source(SRC, "warp_exit.rs", arch=arch).ptx, arch)


@pytest.mark.gpu
def test_warp_exit_barrier_on_the_gpu(rng):
    run("gpu", rng)
