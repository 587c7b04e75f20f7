"""Cooperative-group tiles' `match_any` / `match_all` (and their `_i64` forms, issue 11):
`match.sync` under the tile's mask, the result's bits being tile ranks (as `ballot`'s). On
the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::cooperative_groups::{this_thread_block, ThreadGroup, WarpCollective};
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn matches(x: &[u32], w: &[u64], mut out: DisjointSlice<u32>) {
    let block = this_thread_block();
    let t8 = block.tiled_partition::<8>();
    let t32 = block.tiled_partition::<32>();
    let i = thread::index_1d();
    let v = x[i.get()];
    let q = w[i.get()];
    let r = [t8.match_any(v), t8.match_all(v), t32.match_any(v), t32.match_all(v),
             t8.match_any_i64(q), t8.match_all_i64(q), t32.match_any_i64(q)];
    let base = i.get() * 7;
    let mut k = 0;
    while k < 7 {
        unsafe { *out.get_unchecked_mut(base + k) = r[k]; }
        k += 1;
    }
}
"""

BLOCK = 64


def expected(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    out = []
    for i in range(x.size):
        lane = i % 32
        rows = []
        for vals in (x, w):
            for n in (8, 32):
                base = i - lane + (lane & ~(n - 1))
                tile = [int(v) for v in vals[base:base + n]]
                mine = int(vals[i])
                anym = sum(1 << r for r in range(n) if tile[r] == mine)
                allm = (1 << n) - 1 if len(set(tile)) == 1 else 0
                rows += [anym, allm]
        # the kernel's order: x t8 any/all, x t32 any/all, w t8 any/all, w t32 any
        out += rows[:4] + rows[4:7]
    return np.array(out, np.uint32)


def inputs(rng, blocks: int):
    n = blocks * BLOCK
    x = rng.integers(0, 4, n, dtype=np.uint32)  # few values: many matches
    x[8:16] = 7  # one 8-lane tile where every lane agrees
    x[32:64] = 5  # and one whole warp
    w = rng.integers(0, 3, n, dtype=np.uint64) << np.uint64(33)  # differ only above bit 32
    w[16:24] = np.uint64(9 << 40)
    return x, w


def run(device: str, rng, blocks: int = 2):
    x, w = inputs(rng, blocks)
    out = np.full(x.size * 7, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "m.rs").matches[(blocks,), (BLOCK,)](x, w, out, device=device)
    return out, expected(x, w)


def test_tile_match_on_the_simulator(rng):
    got, want = run("sim", rng)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tile_match_assembles(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "m.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    assert "match.any.sync.b32" in ptx and "match.all.sync.b64" in ptx
    assemble(ptx, arch)


@pytest.mark.gpu
def test_tile_match_on_gpu(rng):
    got, want = run("gpu", rng, blocks=6)
    np.testing.assert_array_equal(got, want)
