"""Cooperative groups (issue 11): `this_thread_block()` (sync, thread_rank, size) and its
warp tiles `tiled_partition::<N>()` (thread_rank, size, sync, tile-relative ballot, all, any,
shfl / shfl_xor / shfl_down / shfl_up and their `_f32` forms: shfl reads rank k mod N, as
CUDA's tile.shfl; for the others a source outside the tile gives the lane its own value). On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

TILES = """
use cuda_device::cooperative_groups::{this_thread_block, ThreadBlock, WarpTile};
use cuda_device::{DisjointSlice, kernel, thread, warp};

#[kernel]
pub fn tiles(x: &[u32], y: &[f32], k: u32, mut out: DisjointSlice<u32>, mut f: DisjointSlice<f32>) {
    let block = this_thread_block();
    let i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    let v = x[i];
    let t8 = block.tiled_partition::<8>();
    let t32 = block.tiled_partition::<32>();
    block.sync();
    t8.sync();
    let a = t8.ballot(v % 3 == 0) ^ (t8.thread_rank() << 8) ^ (t8.size() << 12)
        ^ ((t8.any(v % 5 == 0) as u32) << 16) ^ ((t8.all(v > 100) as u32) << 17)
        ^ ((block.thread_rank() as u32) << 20);
    let b = t8.shfl(v, k) ^ t8.shfl_xor(v, k).wrapping_mul(3) ^ t8.shfl_down(v, k).wrapping_mul(5)
        ^ t8.shfl_up(v, k).wrapping_mul(7);
    let c = t32.ballot(v % 2 == 0) ^ t32.shfl_xor(v, 1) ^ t32.thread_rank() ^ block.size();
    let g = t8.shfl_down_f32(y[i], 1) + t32.shfl_up_f32(y[i], 2) * 2.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a ^ b.rotate_left(3) ^ c.rotate_left(11);
    }
    if let Some(o) = f.get_mut(thread::index_1d()) {
        *o = g;
    }
}
"""

BLOCK = 96


def build(src: str, arch: str = "sm_80") -> driver.Compilation:
    try:
        return driver.compile_source(src, "coop.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


M32 = 0xFFFFFFFF
def rotl(v, s): return ((v << s) | (v >> (32 - s))) & M32
def expected(x, y, k, block):
    out, f = [], []
    for b0 in range(0, x.size, block):
        for w0 in range(0, block, 32):
            w = [int(v) for v in x[b0 + w0:b0 + w0 + 32]]
            yw = y[b0 + w0:b0 + w0 + 32]
            for l in range(32):
                v = w[l]; base = l & ~7; rank = l & 7
                ball8 = sum(1 << r for r in range(8) if w[base + r] % 3 == 0)
                any5 = any(w[base + r] % 5 == 0 for r in range(8))
                all100 = all(w[base + r] > 100 for r in range(8))
                a = ball8 ^ (rank << 8) ^ (8 << 12) ^ (int(any5) << 16) ^ (int(all100) << 17) ^ ((w0 + l) << 20)
                s1 = base + k % 8  # CUDA's tile.shfl: the rank modulo the tile size
                t = rank ^ k; s2 = base + t if t < 8 else l
                s3 = l + k if rank + k < 8 else l
                s4 = l - k if rank >= k else l
                bb = w[s1] ^ ((w[s2] * 3) & M32) ^ ((w[s3] * 5) & M32) ^ ((w[s4] * 7) & M32)
                c = sum(1 << j for j in range(32) if w[j] % 2 == 0) ^ w[l ^ 1] ^ l ^ block
                out.append(a ^ rotl(bb, 3) ^ rotl(c, 11))
                d = l + 1 if rank + 1 < 8 else l
                u = l - 2 if l >= 2 else l
                f.append(np.float32(yw[d]) + np.float32(yw[u]) * np.float32(2))
    return np.array(out, np.uint32), np.array(f, np.float32)


def run_tiles(device: str, rng, k: int, blocks: int = 2):
    from oxidec.api import compile_source
    m = compile_source(TILES, "coop.rs")
    x = rng.integers(0, 300, blocks * BLOCK, dtype=np.uint32)
    y = rng.standard_normal(blocks * BLOCK).astype(np.float32)
    out = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    f = np.full(x.size, np.nan, np.float32)
    m.tiles[(blocks,), (BLOCK,)](x, y, np.uint32(k), out, f, device=device)
    return (out, f), expected(x, y, k, BLOCK)


@pytest.mark.parametrize("k", [1, 3, 8, 13])
def test_thread_block_and_tiles_on_the_simulator(k, rng):
    (out, f), (want, want_f) = run_tiles("sim", rng, k)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(f, want_f)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tiles_assemble(arch, assemble):
    ptx = build(TILES, arch).ptx
    assemble(ptx, arch)
    for needle in ("shfl.sync.idx.b32", "vote.sync.ballot.b32", "bar.warp.sync", "bar.sync"):
        assert needle in ptx, needle


def test_tile_size_must_be_a_power_of_two():
    bad = TILES.replace("tiled_partition::<8>()", "tiled_partition::<12>()")
    with pytest.raises(AssertionError, match="OX0007.*power-of-two size of at most 32 lanes, "
                                             "not 12"):
        build(bad)


@pytest.mark.gpu
@pytest.mark.parametrize("k", [1, 3, 13])
def test_thread_block_and_tiles_on_gpu(k, rng):
    (out, f), (want, want_f) = run_tiles("gpu", rng, k, blocks=5)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(f, want_f)


TYPED = """
use cuda_device::cooperative_groups::{this_thread_block, ThreadBlock, WarpTile};
use cuda_device::{DisjointSlice, kernel, thread};

fn mix(tile: &WarpTile<8>, v: u32) -> u32 {
    tile.shfl_xor(v, 1) ^ tile.thread_rank()
}

fn rank(block: ThreadBlock) -> u32 {
    block.thread_rank()
}

#[kernel]
pub fn typed(x: &[u32], mut out: DisjointSlice<u32>) {
    let block: ThreadBlock = this_thread_block();
    let tile: WarpTile<8> = block.tiled_partition::<8>();
    let i = thread::index_1d();
    let v = x[i.get()];
    let r = mix(&tile, v) ^ (rank(block) << 16);
    if let Some(o) = out.get_mut(i) {
        *o = r;
    }
}
"""


def test_handles_as_written_types_and_device_fn_parameters(rng, ptxas, tmp_path):
    from oxidec.api import compile_source
    x = rng.integers(0, 2**16, 96, dtype=np.uint32)
    out = np.full(96, 0xDEAD_BEEF, np.uint32)
    compile_source(TYPED, "typed.rs").typed[(1,), (96,)](x, out, device="sim")
    lane = np.arange(96)
    np.testing.assert_array_equal(out, x[lane ^ 1] ^ (lane % 8) ^ (lane << 16))
    path = tmp_path / "typed.ptx"
    path.write_text(build(TYPED).ptx)
    r = subprocess.run([ptxas, "-arch=sm_80", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with pytest.raises(AssertionError, match="OX0007.*not 6"):
        build(TYPED.replace("WarpTile<8>", "WarpTile<6>", 1))
