"""`warp::warpid()` (`%warpid`, the warp's hardware slot), `warp::nwarpid()` (`%nwarpid`,
the slot count) and `thread::gridid()` (`%gridid`, the launch's number): the properties
the PTX ISA gives them, on the simulator and the GPU (`gpu`), and the PTX they read.

Every lane of a warp has the warp's slot; the warps of one block, resident together on one
SM, have different slots, each below `nwarpid`; `gridid` is the same in every thread of a
launch and differs between two launches. The simulator gives slot = warp index in the block,
64 slots (the H200's), and numbers its launches."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::{DisjointSlice, kernel, thread, warp};

#[kernel]
pub fn slots(mut out: DisjointSlice<u32>, mut grids: DisjointSlice<u64>) {
    let w = warp::warpid();
    let n = warp::nwarpid();
    let i = thread::index_1d();
    let k = i.get();
    if let Some(g) = grids.get_mut(i) {
        *g = thread::gridid();
    }
    if 2 * k + 1 < out.len() {
        unsafe {
            *out.get_unchecked_mut(2 * k) = w;
            *out.get_unchecked_mut(2 * k + 1) = n;
        }
    }
}
"""


def run(device: str, rng, blocks: int = 3, threads: int = 160):
    m = compile_source(SRC, "slots.rs")
    total = blocks * threads
    out = rng.integers(0, 2**32, 2 * total, dtype=np.uint32)
    grids = [rng.integers(0, 2**63, total, dtype=np.uint64) for _ in range(2)]
    for g in grids:
        m.slots[(blocks,), (threads,)](out, g, device=device)
    return out.reshape(blocks, threads, 2), grids


def check(out: np.ndarray, grids) -> None:
    blocks, threads, _ = out.shape
    slot, count = out[..., 0], out[..., 1]
    assert (count == count.flat[0]).all() and 1 <= count.flat[0] <= 1024, count.flat[0]
    assert (slot < count).all()
    for b in range(blocks):
        warps = [slot[b, w * 32:(w + 1) * 32] for w in range((threads + 31) // 32)]
        assert all((s == s[0]).all() for s in warps), "lanes of one warp disagree"
        firsts = [int(s[0]) for s in warps]
        assert len(set(firsts)) == len(firsts), f"block {b}: warps share a slot: {firsts}"
    for g in grids:
        assert (g == g[0]).all(), "gridid differs within a launch"
    assert grids[0][0] != grids[1][0], "two launches with the same gridid"


def test_slots_on_the_simulator(rng):
    out, grids = run("sim", rng)
    check(out, grids)
    assert (out[..., 0] == np.arange(160) // 32).all() and (out[..., 1] == 64).all()


def test_slots_read_their_registers(assemble):
    ptx = compile_source(SRC, "slots.rs", arch="sm_90").ptx
    for reg in ("%warpid", "%nwarpid", "%gridid"):
        assert reg in ptx, reg
    assemble(ptx, "sm_90")


@pytest.mark.gpu
def test_slots_on_gpu(rng):
    check(*run("gpu", rng))
