"""wgmma (sm_90a): the warpgroup MMA m64n64k16 (bf16 and f16 inputs, f32 accumulator),
wgmma.fence / commit_group / wait_group, and shared-memory matrix descriptors.

Here: the PTX (`.target sm_90a` implied by a build for sm_90, ptxas -arch=sm_90a with no
stack frame and no serialisation warning), OX0013 naming sm_90a for older targets, the
wait count's range, OX0030 on the simulator. On the H200 (`gpu`): one 64x64x16 tile against
NumPy with operands in the no-swizzle core-matrix layout, and the descriptor bits.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

TILE = """
use core::ptr::addr_of;
use cuda_device::barrier::fence_proxy_async_shared_cta;
use cuda_device::wgmma::{make_smem_desc_custom, wgmma_commit_group, wgmma_fence,
                         wgmma_mma_m64n64k16_f32_bf16, wgmma_mma_m64n64k16_f32_f16,
                         wgmma_wait_group, zero_accumulator};
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

// One warpgroup: D (64 x 64, f32) = A (64 x 16) * B (16 x 64) + C, `a` row-major and `bt`
// = B transposed (64 x 16), both as 16-bit patterns (bf16, or f16 when `half`). Operands go
// to shared memory in the no-swizzle K-major layout: 8 x 8 core matrices of 128 bytes,
// row r, column k at (r / 8) * 256 + (k / 8) * 128 + (r % 8) * 16 + (k % 8) * 2 bytes: the
// leading (K) offset is 128 bytes, the stride (M or N) offset 256.
#[kernel]
pub fn tile(a: &[u16], bt: &[u16], c: &[f32], half: bool, mut d: DisjointSlice<f32>) {
    static mut SA: SharedArray<u16, 1024, 128> = SharedArray::UNINIT;
    static mut SB: SharedArray<u16, 1024, 128> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let mut e = t;
    while e < 1024 {
        let r = e / 16;
        let k = e % 16;
        let s = (r / 8) * 128 + (k / 8) * 64 + (r % 8) * 8 + k % 8;
        unsafe {
            SA[s] = a[e];
            SB[s] = bt[e];
        }
        e += 128;
    }
    unsafe { fence_proxy_async_shared_cta(); }
    thread::sync_threads();
    let warp = t / 32;
    let lane = t % 32;
    let mut acc = zero_accumulator();
    #[unroll]
    for i in 0..32 {
        let row = 16 * warp + lane / 4 + 8 * ((i % 4) / 2);
        let col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
        acc[i / 8][i % 8] = c[row * 64 + col];
    }
    unsafe {
        let da = make_smem_desc_custom(addr_of!(SA) as *const u8, 128, 256, false);
        let db = make_smem_desc_custom(addr_of!(SB) as *const u8, 128, 256, false);
        wgmma_fence();
        if half {
            wgmma_mma_m64n64k16_f32_f16(&mut acc, da, db);
        } else {
            wgmma_mma_m64n64k16_f32_bf16(&mut acc, da, db);
        }
        wgmma_commit_group();
        wgmma_wait_group::<0>();
    }
    #[unroll]
    for i in 0..32 {
        let row = 16 * warp + lane / 4 + 8 * ((i % 4) / 2);
        let col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
        let j = row * 64 + col;
        if j < d.len() {
            unsafe { *d.get_unchecked_mut(j) = acc[i / 8][i % 8]; }
        }
    }
}
"""

DESCRIPTORS = """
use core::ptr::addr_of;
use cuda_device::wgmma::{make_smem_desc, make_smem_desc_custom};
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

#[kernel]
pub fn descs(lead: u32, stride: u32, mut out: DisjointSlice<u64>) {
    static mut S: SharedArray<u16, 2048, 128> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let p = unsafe { (addr_of!(S) as *const u8).add(256 * (t % 4)) };
    let fixed = unsafe { make_smem_desc(p) };
    let plain = unsafe { make_smem_desc_custom(p, lead, stride, false) };
    let swizzled = unsafe { make_smem_desc_custom(p, lead, stride, true) };
    if 3 * t + 2 < out.len() {
        unsafe {
            *out.get_unchecked_mut(3 * t) = fixed;
            *out.get_unchecked_mut(3 * t + 1) = plain;
            *out.get_unchecked_mut(3 * t + 2) = swizzled;
        }
    }
}
"""

# cuda-oxide's compile-only shape: two accumulators, two groups, a partial then a full wait
TWO_GROUPS = """
use core::ptr::addr_of;
use cuda_device::wgmma::*;
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

#[kernel]
pub fn two_groups(mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u16, 1024, 128> = SharedArray::UNINIT;
    let mut acc0 = zero_accumulator();
    let mut acc1: [[f32; 8]; 4] = [[1.0f32; 8]; 4];
    unsafe {
        let d = make_smem_desc(addr_of!(S) as *const u8);
        wgmma_fence();
        wgmma_mma_m64n64k16_f32_bf16(&mut acc0, d, d);
        wgmma_commit_group();
        wgmma_mma_m64n64k16_f32_bf16(&mut acc1, d, d);
        wgmma_commit_group();
        wgmma_wait_group::<1>();
        wgmma_wait_group::<0>();
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = acc0[0][0].to_bits() ^ acc1[3][7].to_bits();
    }
}
"""


def build(src: str, arch: str = "sm_90") -> driver.Compilation:
    try:
        return driver.compile_source(src, "wgmma.rs", driver.Options(arch=arch, index32=False))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


@pytest.mark.parametrize("src", [TILE, DESCRIPTORS, TWO_GROUPS], ids=["tile", "descs", "two"])
def test_wgmma_assembles_for_sm90a(src, ptxas, tmp_path):
    ptx = build(src).ptx
    assert "\n.target sm_90a\n" in ptx and "\n.version 8.0\n" in ptx
    assert build(src, "sm_90a").ptx == ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90a", "-v", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" in r.stderr, r.stderr
    assert "serialized" not in r.stderr, r.stderr  # nothing touches the accumulator early


def test_wgmma_ptx_forms():
    tile = build(TILE).ptx
    for needle in ("wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;",
                   "wgmma.wait_group.sync.aligned \t0;",
                   "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 \t{%f",
                   "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 \t{%f",
                   "fence.proxy.async.shared::cta;"):
        assert needle in tile, needle
    two = build(TWO_GROUPS).ptx
    assert "wgmma.wait_group.sync.aligned \t1;" in two
    assert two.count("wgmma.mma_async") == 2
    assert "0xc000000800080000" in two  # cuda-oxide's fixed descriptor bits
    plain = build(DESCRIPTORS.replace("make_smem_desc_custom", "make_smem_desc_custom")).ptx
    assert "0x4000000000000000" in plain  # the 128-byte swizzle bit


def test_wgmma_needs_sm90a():
    with pytest.raises(CompileError) as err:
        driver.compile_source(TWO_GROUPS, "w.rs", driver.Options(arch="sm_80"))
    text = render_all(err.value.diagnostics)
    assert "error[OX0013]: `wgmma::wgmma_fence` needs sm_90a, but this build targets sm_80" in text
    assert "`--arch sm_90a`" in text


def test_wait_group_count_is_checked():
    src = TWO_GROUPS.replace("wgmma_wait_group::<1>()", "wgmma_wait_group::<9>()")
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "w.rs", driver.Options(arch="sm_90"))
    assert "error[OX0007]: `wgmma::wgmma_wait_group` takes a group count in 0..=7, found 9" \
        in render_all(err.value.diagnostics)


def test_simulator_refuses_wgmma(rng):
    from oxidec.api import compile_source
    from oxidec.sim import SimError
    mod = compile_source(DESCRIPTORS, "d.rs", arch="sm_90")
    out = np.full(3 * 128, 0xDEAD_BEEF_DEAD_BEEF, np.uint64)
    with pytest.raises(SimError, match="uses `wgmma::make_smem_desc`, which runs on the GPU only"):
        mod.descs[(1,), (128,)](128, 256, out, device="sim")
    assert (out == 0xDEAD_BEEF_DEAD_BEEF).all()


# ---------------------------------------------------------------------------------------
# On the H200


def to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bit patterns, rounded to nearest even."""
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return b.astype(np.uint16)


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    return (b.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.gpu
@pytest.mark.parametrize("half", [False, True], ids=["bf16", "f16"])
def test_wgmma_tile_on_gpu(half, rng):
    from oxidec.api import compile_source
    mod = compile_source(TILE, "tile.rs", arch="sm_90")
    a = rng.uniform(-2, 2, (64, 16)).astype(np.float32)
    b = rng.uniform(-2, 2, (16, 64)).astype(np.float32)
    if half:
        a_bits, bt_bits = a.astype(np.float16).view(np.uint16), b.T.astype(np.float16).view(np.uint16)
        a_val = a_bits.view(np.float16).astype(np.float64)
        b_val = bt_bits.view(np.float16).astype(np.float64).T
    else:
        a_bits, bt_bits = to_bf16_bits(a), to_bf16_bits(np.ascontiguousarray(b.T))
        a_val = from_bf16_bits(a_bits).astype(np.float64)
        b_val = from_bf16_bits(bt_bits).astype(np.float64).T
    c = rng.uniform(-1, 1, (64, 64)).astype(np.float32)
    d = np.full(64 * 64, np.nan, np.float32)
    mod.tile[(1,), (128,)](a_bits.reshape(-1), np.ascontiguousarray(bt_bits).reshape(-1),
                            c.reshape(-1), half, d, device="gpu")
    want = a_val @ b_val + c
    bound = 2.0**-18 * (np.abs(a_val) @ np.abs(b_val) + np.abs(c)) + 1e-30
    got = d.reshape(64, 64).astype(np.float64)
    bad = ~(np.abs(got - want) <= bound)
    assert not bad.any(), f"{bad.sum()} of 4096 wrong, e.g. at {np.argwhere(bad)[:3].tolist()}: " \
        f"got {got[bad][:3]}, want {want[bad][:3]}"


@pytest.mark.gpu
def test_descriptor_bits_on_gpu(rng):
    from oxidec.api import compile_source
    mod = compile_source(DESCRIPTORS, "d.rs", arch="sm_90")
    lead, stride = 16 * int(rng.integers(1, 1024)), 16 * int(rng.integers(1, 1024))
    out = np.full(3 * 128, 0xDEAD_BEEF_DEAD_BEEF, np.uint64)
    mod.descs[(1,), (128,)](lead, stride, out, device="gpu")
    fixed, plain, swizzled = out[0::3], out[1::3], out[2::3]
    start = fixed & np.uint64(0x3FFF)
    np.testing.assert_array_equal(fixed & ~np.uint64(0x3FFF), np.uint64(0xC000_0008_0008_0000))
    np.testing.assert_array_equal(plain, start | np.uint64(((lead >> 4) << 16) | ((stride >> 4) << 32)))
    np.testing.assert_array_equal(swizzled, plain | np.uint64(1 << 62))
    # the four threads' pointers are 256 bytes (16 units) apart, 128-byte aligned
    t = np.arange(128) % 4
    np.testing.assert_array_equal(start - start[0], (16 * t).astype(np.uint64))
    assert int(start[0]) % 8 == 0
