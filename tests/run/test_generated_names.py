"""Crate `cuda_intrinsics` (cuda-oxide's generated intrinsics, issue 11): its `sreg::*`
names (`thread_idx_x`, `block_dim_x`, `lane_id`, `lanemask_lt`, ..) and `matrix::*` names
(`ldmatrix_m8n8_x4_b16`, the `mma_*`) are the same device items as `cuda_device`'s; its
`warp::*` keep cuda_device's names. On the simulator against NumPy, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::{DisjointSlice, kernel, thread};
use cuda_intrinsics::sreg::{block_dim_x, block_idx_x, grid_dim_x, lane_id, lanemask_lt,
                            thread_idx_x, thread_idx_y};
use cuda_intrinsics::warp::shuffle_xor_sync;

#[kernel]
pub fn names(x: &[u32], mut out: DisjointSlice<u32>) {
    let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as usize;
    let v = shuffle_xor_sync(0xFFFF_FFFF, x[i], 1);
    let r = v ^ (lane_id() << 8) ^ (lanemask_lt() << 1) ^ (grid_dim_x() << 20)
        ^ (thread_idx_y() << 30);
    unsafe { *out.get_unchecked_mut(i) = r; }
}
"""


def run(device: str, rng, blocks: int):
    x = rng.integers(0, 2**16, blocks * 64, dtype=np.uint32)
    out = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "names.rs").names[(blocks,), (64,)](x, out, device=device)
    i = np.arange(x.size, dtype=np.uint32)
    lane = i % 32
    lt = ((np.uint64(1) << lane.astype(np.uint64)) - np.uint64(1)).astype(np.uint32)
    want = x[i ^ 1] ^ (lane << 8) ^ (lt << 1) ^ np.uint32(blocks << 20)
    return out, want


def test_generated_names_on_the_simulator(rng):
    out, want = run("sim", rng, 3)
    np.testing.assert_array_equal(out, want)


@pytest.mark.gpu
def test_generated_names_on_gpu(rng):
    out, want = run("gpu", rng, 5)
    np.testing.assert_array_equal(out, want)
