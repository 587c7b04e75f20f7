"""`warp::uni_sync(mask, p)` (issue 11): true when p is the same in every lane of the mask
(`vote.sync.uni.pred`), with full and partial masks. On the simulator against NumPy,
through ptxas, and on the GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source

SRC = """
use cuda_device::{DisjointSlice, kernel, thread, warp};

#[kernel]
pub fn uni(x: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let v = x[i.get()];
    let full = warp::uni_sync(0xFFFF_FFFF, v > 10) as u32;
    let lane = warp::lane_id();
    let mut low = 0;
    if lane < 16 {
        low = warp::uni_sync(0x0000_FFFF, v % 2 == 0) as u32;
    }
    if let Some(o) = out.get_mut(i) {
        *o = full | (low << 1);
    }
}
"""


def run(device, rng, warps=8):
    x = rng.integers(0, 12, warps * 32, dtype=np.uint32)
    x[:32] = 20  # every lane agrees (> 10)
    x[32:48] = 4  # every even in the low half
    out = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "u.rs").uni[(warps // 2,), (64,)](x, out, device=device)
    w = x.reshape(warps, 32)
    big = w > 10
    full = (big.all(1) | ~big.any(1)).astype(np.uint32)
    even = (w[:, :16] % 2 == 0)
    low = (even.all(1) | ~even.any(1)).astype(np.uint32)
    want = np.repeat(full, 32).reshape(warps, 32) | (np.repeat(low, 32).reshape(warps, 32) << 1)
    want[:, 16:] &= 1
    return out, want.reshape(-1)


def test_uni_sync_on_the_simulator(rng):
    out, want = run("sim", rng)
    np.testing.assert_array_equal(out, want)


def test_uni_sync_assembles(ptxas, tmp_path):
    ptx = driver.compile_source(SRC, "u.rs", driver.Options()).ptx
    assert "vote.sync.uni.pred" in ptx
    path = tmp_path / "u.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_80", str(path), "-o", str(tmp_path / "u.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_uni_sync_on_gpu(rng):
    out, want = run("gpu", rng, warps=16)
    np.testing.assert_array_equal(out, want)
