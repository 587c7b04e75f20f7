"""Masked warp collectives (issue 11): `*_sync(mask, ..)` shuffles and votes, `match_*`,
typed `redux_sync_*`, `elect_sync` (sm_90), `sync_mask`, `popc`, `live_lanes_1d` and the
`reduce_*` helpers. On the simulator against NumPy, through ptxas for sm_80 and sm_90, on
the GPU against the simulator (`gpu`), and the simulator's check that the lanes executing a
masked collective are exactly its mask.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.sim import SimError, run_kernel
from samples.reference import fma32

FULL = 0xFFFF_FFFF

MASKED = """
#[kernel]
pub fn masked(x: &[u32], y: &[f32], k: u32, mut a: DisjointSlice<u32>, mut b: DisjointSlice<u32>,
              mut c: DisjointSlice<f32>, mut d: DisjointSlice<f32>) {
    let lane = warp::lane_id();
    let i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    let v = x[i];
    let mut r = 0u32;
    let mut s = 0u32;
    let kb = k & 31;  // a source lane outside the mask gives an undefined value: unused
    if lane < 16 {
        let dn = warp::shuffle_down_sync(0x0000_ffff, v, k);
        let dn = if lane + kb < 16 || lane + kb > 31 { dn } else { 0 };
        r = warp::shuffle_xor_sync(0x0000_ffff, v, k & 15) ^ dn.wrapping_mul(3);
        s = warp::ballot_sync(0x0000_ffff, v % 3 == 0) ^ (warp::any_sync(0x0000_ffff, v == 7) as u32)
            ^ ((warp::all_sync(0x0000_ffff, v > 1000) as u32) << 1);
    } else {
        let up = warp::shuffle_up_sync(0xffff_0000, v, k);
        let up = if lane >= 16 + kb || lane < kb { up } else { 0 };
        let ix = warp::shuffle_sync(0xffff_0000, v, k + 16);
        r = up ^ if (k + 16) & 31 >= 16 { ix } else { 0 };
        s = warp::redux_sync_min_i32(0xffff_0000, v as i32) as u32
            ^ warp::redux_sync_max_u32(0xffff_0000, v).wrapping_mul(5)
            ^ warp::redux_sync_add(0xffff_0000, v & 0xff).wrapping_mul(7);
    }
    let odd = v % 2 == 1;
    let m = warp::ballot(odd);
    if odd {
        r ^= warp::match_any_sync(m, v & 7).wrapping_mul(11) ^ warp::redux_sync_xor(m, v);
    }
    r ^= warp::match_all_i64_sync(u32::MAX, (v & 1) as u64) ^ warp::popc(v > 5).wrapping_mul(13);
    r ^= warp::redux_sync_and(u32::MAX, v | 0xf0).wrapping_mul(17)
        ^ warp::redux_sync_or(u32::MAX, v & 0xff00).wrapping_mul(19);
    warp::sync_mask(u32::MAX);
    let f = y[i];
    let full = warp::reduce_sum_f32(f) + warp::reduce_max_f32(f) * 2.0 - warp::reduce_min_f32(f);
    let live = warp::live_lanes_1d();
    let part = warp::reduce_sum_f32_partial(f, live) * 3.0 + warp::reduce_max_f32_partial(f, live);
    if let Some(o) = a.get_mut(thread::index_1d()) { *o = r; }
    if let Some(o) = b.get_mut(thread::index_1d()) { *o = s ^ (live << 24); }
    if let Some(o) = c.get_mut(thread::index_1d()) { *o = full; }
    if let Some(o) = d.get_mut(thread::index_1d()) { *o = part; }
}
"""


def build(src: str, arch: str = "sm_80") -> driver.Compilation:
    try:
        return driver.compile_source(src, "warp_masked.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def _warps(v: np.ndarray, size: int = 32):
    return [v[i:i + size] for i in range(0, v.size, size)]


def _bits(flags) -> int:
    return sum(1 << j for j, f in enumerate(flags) if f)


def expected_masked(x: np.ndarray, k: int):
    """a and b for one block of 64 (two full warps)."""
    a, b = [], []
    kb = k & 31
    for w in _warps(x):
        w = [int(v) for v in w]
        odd = [v % 2 == 1 for v in w]
        for lane, v in enumerate(w):
            if lane < 16:
                dn = w[lane + kb] if lane + kb < 16 else v if lane + kb > 31 else 0
                r = w[lane ^ (k & 15)] ^ ((dn * 3) & FULL)
                s = _bits(u % 3 == 0 for u in w[:16]) ^ int(7 in w[:16]) \
                    ^ (int(all(u > 1000 for u in w[:16])) << 1)
            else:
                up = w[lane - kb] if lane >= 16 + kb else v if lane < kb else 0
                src = (k + 16) & 31
                r = up ^ (w[src] if src >= 16 else 0)
                hi = w[16:]
                signed = [u - (1 << 32) if u >= 1 << 31 else u for u in hi]
                s = (min(signed) & FULL) ^ ((max(hi) * 5) & FULL) \
                    ^ ((sum(u & 0xFF for u in hi) * 7) & FULL)
            if odd[lane]:
                peers = _bits(odd[j] and (w[j] & 7) == (v & 7) for j in range(32))
                xor = 0
                for j in range(32):
                    if odd[j]:
                        xor ^= w[j]
                r ^= ((peers * 11) & FULL) ^ xor
            low = [u & 1 for u in w]
            r ^= (FULL if len(set(low)) == 1 else 0) ^ ((sum(u > 5 for u in w) * 13) & FULL)
            anded = FULL
            ored = 0
            for u in w:
                anded &= u | 0xF0
                ored |= u & 0xFF00
            r ^= ((anded * 17) & FULL) ^ ((ored * 19) & FULL)
            a.append(r)
            b.append(s ^ (32 << 24))
    return np.array(a, np.uint32), np.array(b, np.uint32)


def tree_f32(vals: np.ndarray, combine, live: int) -> np.float32:
    v = vals[:live].astype(np.float32).copy()
    for k in (16, 8, 4, 2, 1):
        top = max(live - k, 0)
        v[:top] = combine(v[:top], v[k:k + top])
    return v[0]


def butterfly_f32(vals: np.ndarray, combine) -> np.ndarray:
    v = vals.astype(np.float32).copy()
    lane = np.arange(32)
    for k in (16, 8, 4, 2, 1):
        v = combine(v, v[lane ^ k])
    return v


def expected_floats(y: np.ndarray, block: int):
    """c: full-warp butterflies (x * 2.0 is exact, so a contracted fma changes nothing);
    d: the partial down-trees, a * 3.0 + b contracted into one fma."""
    c, d = [], []
    for b0 in range(0, y.size, block):
        for w0 in range(0, block, 32):
            live = min(32, block - w0)
            w = y[b0 + w0:b0 + w0 + live]
            padded = np.concatenate([w, np.zeros(32 - live, np.float32)])
            full = butterfly_f32(padded, np.add) + butterfly_f32(padded, np.fmax) \
                * np.float32(2) - butterfly_f32(padded, np.fmin)
            c.extend(full[:live])
            part = fma32(tree_f32(w, np.add, live), np.float32(3), tree_f32(w, np.fmax, live))
            d.extend([np.float32(part)] * live)
    return np.array(c, np.float32), np.array(d, np.float32)


def run_masked(device: str, x, y, k, module=None):
    n = x.size
    outs = [np.full(n, 0xDEAD_BEEF, np.uint32), np.full(n, 0xDEAD_BEEF, np.uint32),
            np.full(n, np.nan, np.float32), np.full(n, np.nan, np.float32)]
    if device == "sim":
        run_kernel(build(MASKED).program, "masked", (n // 64,), (64,), [x, y, np.uint32(k), *outs])
    else:
        module.masked[(n // 64,), (64,)](x, y, np.uint32(k), *outs, device=device)
    return outs


@pytest.mark.parametrize("k", [1, 5, 16, 33])
def test_masked_collectives_on_the_simulator(k, rng):
    x = rng.integers(0, 2**32, 64, dtype=np.uint32)
    x[::7] = 7  # some equal values for match_any, and a 7 for any_sync
    y = rng.standard_normal(64).astype(np.float32)
    a, b, c, d = run_masked("sim", x, y, k)
    want_a, want_b = expected_masked(x, k)
    np.testing.assert_array_equal(b, want_b)
    np.testing.assert_array_equal(a, want_a)
    want_c, want_d = expected_floats(y, 64)
    np.testing.assert_array_equal(c, want_c)
    np.testing.assert_array_equal(d, want_d)


PARTIAL = """
#[kernel]
pub fn partial(y: &[f32], mut out: DisjointSlice<f32>, mut lanes: DisjointSlice<u32>) {
    let i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    let f = y[i];
    let live = warp::live_lanes_1d();
    let s = warp::reduce_sum_f32_partial(f, live) - warp::reduce_min_f32_partial(f, live);
    let t = warp::reduce_sum_f64_partial(f as f64, live) + warp::reduce_max_f64_partial(f as f64, live);
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = s + t as f32; }
    if let Some(o) = lanes.get_mut(thread::index_1d()) { *o = live; }
}
"""


def test_partial_reductions_in_partial_warps(rng):
    block, blocks = 80, 3
    y = rng.standard_normal(block * blocks).astype(np.float32)
    out = np.full(y.size, np.nan, np.float32)
    lanes = np.full(y.size, 0xDEAD_BEEF, np.uint32)
    run_kernel(build(PARTIAL).program, "partial", (blocks,), (block,), [y, out, lanes])
    want, want_lanes = [], []
    for b0 in range(0, y.size, block):
        for w0 in range(0, block, 32):
            live = min(32, block - w0)
            w = y[b0 + w0:b0 + w0 + live]
            s = tree_f32(w, np.add, live) - tree_f32(w, np.fmin, live)
            w64 = w.astype(np.float64)
            v = w64.copy()
            for k in (16, 8, 4, 2, 1):
                top = max(live - k, 0)
                v[:top] = v[:top] + v[k:k + top]
            t = v[0] + w64.max()
            want += [np.float32(s + np.float32(t))] * live
            want_lanes += [live] * live
    np.testing.assert_array_equal(lanes, want_lanes)
    np.testing.assert_array_equal(out, np.array(want, np.float32))


WRONG_MASK = """
#[kernel]
pub fn wrong(x: &[u32], m: u32, mut out: DisjointSlice<u32>) {
    let i = thread::threadIdx_x() as usize;
    let v = warp::shuffle_xor_sync(m, x[i], 1);
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = v; }
}
"""


def test_simulator_rejects_a_mask_that_is_not_the_executing_lanes(rng):
    x = rng.integers(0, 100, 32, dtype=np.uint32)
    prog = build(WRONG_MASK).program
    out = np.zeros(32, np.uint32)
    run_kernel(prog, "wrong", (1,), (32,), [x, np.uint32(FULL), out])
    np.testing.assert_array_equal(out, x[np.arange(32) ^ 1])
    with pytest.raises(SimError, match="must be exactly its mask"):
        run_kernel(prog, "wrong", (1,), (32,), [x, np.uint32(0xFFFF), out])
    out16 = np.zeros(16, np.uint32)  # a warp of 16 lanes: the mask of the existing lanes
    run_kernel(prog, "wrong", (1,), (16,), [x[:16], np.uint32(0xFFFF), out16])
    np.testing.assert_array_equal(out16, x[:16][np.arange(16) ^ 1])


ELECT = """
#[kernel]
pub fn elect(x: &[u32], mut leader: DisjointSlice<u32>, mut me: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    let even = x[i] % 2 == 0;
    let m = warp::ballot(even);
    let mut l = 99u32;
    let mut e = 0u32;
    if even {
        let (who, is_me) = warp::elect_sync(m);
        l = who;
        e = is_me as u32 + 2 * warp::is_elected_sync(m) as u32;
    }
    if let Some(o) = leader.get_mut(thread::index_1d()) { *o = l; }
    if let Some(o) = me.get_mut(thread::index_1d()) { *o = e ^ (lane << 8); }
}
"""


def _check_elect(x, leader, me):
    for w0 in range(0, x.size, 32):
        even = x[w0:w0 + 32] % 2 == 0
        ld, e = leader[w0:w0 + 32], me[w0:w0 + 32] & 0xFF
        assert ((me[w0:w0 + 32] >> 8) == np.arange(32)).all()
        assert (ld[~even] == 99).all() and (e[~even] == 0).all()
        if even.any():
            chosen = int(ld[even][0])
            assert (ld[even] == chosen).all() and even[chosen]
            assert e[chosen] == 3 and (np.delete(e, chosen)[np.delete(even, chosen)] == 0).all()


def test_elect_sync_on_the_simulator(rng):
    x = rng.integers(0, 1000, 64, dtype=np.uint32)
    leader, me = np.full(64, 0xDEAD_BEEF, np.uint32), np.full(64, 0xDEAD_BEEF, np.uint32)
    run_kernel(build(ELECT, "sm_90").program, "elect", (2,), (32,), [x, leader, me])
    _check_elect(x, leader, me)
    for w0 in (0, 32):  # the simulator elects the lowest lane
        even = np.flatnonzero(x[w0:w0 + 32] % 2 == 0)
        if even.size:
            assert leader[w0 + even[0]] == even[0]


def test_elect_sync_needs_sm_90():
    with pytest.raises(AssertionError, match=r"OX0013.*elect_sync. needs sm_90"):
        build(ELECT, "sm_80")


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_masked_collectives_assemble(arch, ptxas, tmp_path):
    sources = [MASKED, PARTIAL, WRONG_MASK] + ([ELECT] if arch == "sm_90" else [])
    for n, src in enumerate(sources):
        ptx = build(src, arch).ptx
        path = tmp_path / f"k{n}.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    masked = build(MASKED, arch).ptx
    for needle in ("shfl.sync.bfly.b32", "65535;", "vote.sync.ballot.b32",
                   "match.any.sync.b32", "match.all.sync.b64", "redux.sync.min.s32",
                   "redux.sync.max.u32", "redux.sync.add.u32", "redux.sync.and.b32",
                   "bar.warp.sync", "shfl.sync.down.b32", "shfl.sync.idx.b32"):
        assert needle in masked, needle
    if arch == "sm_90":
        assert "elect.sync" in build(ELECT, arch).ptx


@pytest.mark.gpu
@pytest.mark.parametrize("k", [1, 16])
def test_masked_collectives_on_gpu(k, rng):
    from oxidec.api import compile_source
    module = compile_source(MASKED, "masked.rs")
    x = rng.integers(0, 2**32, 128, dtype=np.uint32)
    x[::7] = 7
    y = rng.standard_normal(128).astype(np.float32)
    gpu = run_masked("gpu", x, y, k, module)
    sim = run_masked("sim", x, y, k)
    for got, want in zip(gpu, sim):
        np.testing.assert_array_equal(got, want)
    want_a = np.concatenate([expected_masked(x[:64], k)[0], expected_masked(x[64:], k)[0]])
    np.testing.assert_array_equal(gpu[0], want_a)


@pytest.mark.gpu
def test_partial_reductions_and_elect_on_gpu(rng):
    from oxidec.api import compile_source
    y = rng.standard_normal(240).astype(np.float32)
    results = {}
    module = compile_source(PARTIAL, "partial.rs")
    for device in ("sim", "gpu"):
        out, lanes = np.full(240, np.nan, np.float32), np.full(240, 0xDEAD_BEEF, np.uint32)
        module.partial[(3,), (80,)](y, out, lanes, device=device)
        results[device] = (out, lanes)
    for got, want in zip(results["gpu"], results["sim"]):
        np.testing.assert_array_equal(got, want)
    x = rng.integers(0, 1000, 128, dtype=np.uint32)
    elect = compile_source(ELECT, "elect.rs", arch="sm_90")
    leader, me = np.full(128, 0xDEAD_BEEF, np.uint32), np.full(128, 0xDEAD_BEEF, np.uint32)
    elect.elect[(4,), (32,)](x, leader, me, device="gpu")
    _check_elect(x, leader, me)
