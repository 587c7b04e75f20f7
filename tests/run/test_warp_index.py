"""`thread::warp_index()` and `DisjointSlice<T, WarpIndex>` (issue 11): on lane 0 of each warp
of a 1-D launch Some(blockIdx.x * ceil(blockDim.x / 32) + threadIdx.x / 32), elsewhere None;
element w of a `WarpIndex` slice belongs to warp w. On the simulator against NumPy (a block
size that is not a multiple of 32 too), through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::{kernel, thread, DisjointSlice, WarpIndex};

#[kernel]
pub fn lane0(x: &[u32], mut per_warp: DisjointSlice<u32, WarpIndex>, mut seen: DisjointSlice<u32>) {
    let i = thread::index_1d().get();
    let v = if i < x.len() { x[i] } else { 0 };
    let mut got = 0u32;
    if let Some(w) = thread::warp_index() {
        got = 1 + w.get() as u32;
        if let Some(o) = per_warp.get_mut(w) {
            *o = v ^ (thread::threadIdx_x() << 20);
        }
    }
    if let Some(s) = seen.get_mut(thread::index_1d()) {
        *s = got;
    }
}
"""


def run(device, rng, block):
    blocks = int(rng.integers(2, 5))
    n = blocks * block
    warps_per_block = -(-block // 32)
    x = rng.integers(0, 1 << 20, n, dtype=np.uint32)
    per_warp = np.full(blocks * warps_per_block, 0xDEAD_BEEF, np.uint32)
    seen = np.full(n, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "wi.rs").lane0[(blocks,), (block,)](x, per_warp, seen, device=device)
    t = np.arange(n) % block
    b = np.arange(n) // block
    lane0 = t % 32 == 0
    w = b * warps_per_block + t // 32
    want_seen = np.where(lane0, 1 + w, 0).astype(np.uint32)
    want_pw = np.zeros_like(per_warp)
    want_pw[w[lane0]] = x[lane0] ^ (t[lane0].astype(np.uint32) << 20)
    return (per_warp, want_pw), (seen, want_seen)


@pytest.mark.parametrize("block", [64, 80])
def test_warp_index_on_the_simulator(block, rng):
    for got, want in run("sim", rng, block):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_warp_index_assembles(arch, assemble):
    assemble(compile_source(SRC, "wi.rs", arch=arch).ptx, arch)


def test_warp_index_slice_has_no_get_mut_indexed():
    bad = SRC.replace("if let Some(o) = per_warp.get_mut(w) {",
                      "if let Some((o, _w)) = per_warp.get_mut_indexed() {")
    with pytest.raises(CompileError) as info:
        compile_source(bad, "wi.rs")
    assert "error[E0599]: no method named `get_mut_indexed` found for `DisjointSlice<u32, " \
        "thread::WarpIndex>`" in render_all(info.value.diagnostics)


@pytest.mark.gpu
@pytest.mark.parametrize("block", [64, 80])
def test_warp_index_on_gpu(block, rng):
    for got, want in run("gpu", rng, block):
        np.testing.assert_array_equal(got, want)
