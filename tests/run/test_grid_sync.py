"""The grid barrier (issue 11): `grid::sync()` and `this_grid()` (`sync`, `thread_rank`,
`size`, `num_blocks`, `block_rank`) in a `#[cooperative_launch]` kernel. The simulator runs
every block of such a launch in one batch, so blocks really meet at the barrier (a block that
leaves early is reported, as the hang it is on the GPU); the GPU launches the kernel with
the cooperative attribute and the PTX reads the driver's grid workspace. On the simulator
against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all
from oxidec.sim.errors import SimError

SRC = """
use cuda_device::cooperative_groups::{this_grid, ThreadGroup};
use cuda_device::{DisjointSlice, cooperative_launch, grid, kernel, thread};

// Two phases over the whole grid: every block publishes its sum, meets the others at the
// grid barrier, then reads every block's sum (its own block order, rotated); a second
// barrier separates the reads from the next writes (the barrier's counter flips twice).
#[cooperative_launch]
#[kernel]
pub fn phases(x: &[u32], partial: *mut u32, mut out: DisjointSlice<u32>, mut ranks: DisjointSlice<u32>) {
    let g = this_grid();
    let b = thread::blockIdx_x();
    let i = thread::index_1d();
    let v = x[i.get()];
    if thread::threadIdx_x() == 0 {
        let mut s = 0u32;
        let mut k = 0usize;
        let base = (b * thread::blockDim_x()) as usize;
        while k < thread::blockDim_x() as usize {
            s = s.wrapping_add(x[base + k]);
            k += 1;
        }
        unsafe { *partial.add(b as usize) = s; }
    }
    grid::sync();
    let nb = g.num_blocks();
    let mut total = 0u32;
    let mut k = 0u32;
    while k < nb {
        let other = unsafe { *partial.add(((b + k) % nb) as usize) };
        total = total.wrapping_add(other.rotate_left(k));
        k += 1;
    }
    g.sync();
    if thread::threadIdx_x() == 0 {
        unsafe { *partial.add(b as usize) = total ^ 0x5555; }
    }
    g.sync();
    let after = unsafe { *partial.add(((b + 1) % nb) as usize) };
    if let Some(o) = out.get_mut(i) {
        *o = total ^ v ^ after.rotate_left(7);
    }
    let r = g.thread_rank() ^ (g.block_rank() << 16) ^ (g.size() << 24);
    let j = thread::index_1d();
    if let Some(o) = ranks.get_mut(j) {
        *o = r;
    }
}
"""

BLOCK = 64


def expected(x: np.ndarray, blocks: int):
    partial = x.reshape(blocks, BLOCK).sum(axis=1, dtype=np.uint64).astype(np.uint32)

    def rotl(v, s):
        v, s = int(v), s % 32
        return ((v << s) | (v >> (32 - s))) & 0xFFFFFFFF if s else v
    totals = []
    for b in range(blocks):
        t = 0
        for k in range(blocks):
            t = (t + rotl(partial[(b + k) % blocks], k)) & 0xFFFFFFFF
        totals.append(t)
    out, ranks = [], []
    for i in range(x.size):
        b = i // BLOCK
        after = totals[(b + 1) % blocks] ^ 0x5555
        out.append(totals[b] ^ int(x[i]) ^ rotl(after, 7))
        ranks.append((i ^ (b << 16) ^ ((blocks * BLOCK) << 24)) & 0xFFFFFFFF)
    return np.array(out, np.uint32), np.array(ranks, np.uint32)


def run(device: str, rng, blocks: int):
    x = rng.integers(0, 2**32, blocks * BLOCK, dtype=np.uint32)
    partial = np.full(blocks, 0xDEAD_BEEF, np.uint32)
    out = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    ranks = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    m = compile_source(SRC, "grid.rs")
    assert m.phases.cooperative
    m.phases[(blocks,), (BLOCK,)](x, partial, out, ranks, device=device)
    return (out, ranks), expected(x, blocks)


@pytest.mark.parametrize("blocks", [1, 3, 9])
def test_grid_sync_on_the_simulator(blocks, rng):
    (out, ranks), (want, want_ranks) = run("sim", rng, blocks)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(ranks, want_ranks)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_grid_sync_assembles(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "grid.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    for needle in ("%envreg1", "%envreg2", "atom.add.u32", "ld.volatile.u32", "bar.sync"):
        assert needle in ptx, needle
    assemble(ptx, arch)


def test_a_block_that_leaves_before_the_grid_barrier_is_reported(rng):
    src = SRC.replace("    grid::sync();\n", "    if thread::blockIdx_x() == 1 {\n"
                      "        return;\n    }\n    grid::sync();\n", 1)
    m = compile_source(src, "grid.rs")
    x = rng.integers(0, 100, 3 * BLOCK, dtype=np.uint32)
    args = (x, np.zeros(3, np.uint32), np.zeros(x.size, np.uint32), np.zeros(x.size, np.uint32))
    with pytest.raises(SimError, match=r"grid barrier divergence in kernel `phases`: 2 of 3 "
                                       r"blocks reached `grid::sync\(\)` at .*, 1 exited"):
        m.phases[(3,), (BLOCK,)](*args, device="sim")


def test_a_grid_sync_launch_too_large_for_the_simulator_is_gpu_only(rng):
    from oxidec.sim.gpu_only import SimGpuOnly
    m = compile_source(SRC, "grid.rs")
    blocks = (1 << 18) // BLOCK + 1
    x = np.zeros(blocks * BLOCK, np.uint32)
    with pytest.raises(SimGpuOnly, match="syncs the whole grid .* runs on the GPU only"):
        m.phases[(blocks,), (BLOCK,)](x, np.zeros(blocks, np.uint32), np.zeros_like(x),
                                      np.zeros_like(x), device="sim")


def test_cooperative_launch_takes_no_arguments():
    with pytest.raises(CompileError) as err:
        driver.compile_source(SRC.replace("#[cooperative_launch]", "#[cooperative_launch(2)]"),
                              "grid.rs", driver.Options())
    assert "OX0003" in render_all(err.value.diagnostics)
    assert "takes no arguments" in render_all(err.value.diagnostics)


@pytest.mark.gpu
@pytest.mark.parametrize("blocks", [2, 16, 66])
def test_grid_sync_on_gpu(blocks, rng):
    (out, ranks), (want, want_ranks) = run("gpu", rng, blocks)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(ranks, want_ranks)
