"""`coalesced_threads()` (issue 11): the group of the lanes active where it is made, inside
a data-dependent branch: size, thread_rank, raw_mask, all/any, shfl by rank (a rank past the
size: the own value) and shfl_xor/down/up by lane id (a source outside the group: the own
value), u32 and f32. On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::cooperative_groups::{coalesced_threads, ThreadGroup, WarpCollective};
use cuda_device::{kernel, thread};

#[kernel]
pub unsafe fn groups(x: &[u32], r: &[u32], out: *mut u32) {
    let i = thread::index_1d().get();
    let v = x[i];
    let mut res = [0u32; 8];
    if v % 3 != 0 {
        let g = coalesced_threads();
        res[0] = g.size() | (g.thread_rank() << 8) | ((g.all(v > 5) as u32) << 16)
            | ((g.any(v == 7) as u32) << 17);
        res[1] = g.raw_mask();
        res[2] = g.shfl(v, r[i]);
        res[3] = g.shfl_xor(v, r[i] % 4);
        res[4] = g.shfl_down(v, 1 + r[i] % 3);
        res[5] = g.shfl_up(v, 2);
        res[6] = g.shfl_f32(v as f32 * 0.5, r[i] % 8).to_bits();
        res[7] = g.shfl_down_f32(v as f32, 1).to_bits();
    }
    let mut k = 0;
    while k < 8 {
        *out.add(i * 8 + k) = res[k];
        k += 1;
    }
}
"""


def expected(x, r):
    out = np.zeros((x.size, 8), np.uint32)
    f = lambda v: int(np.array([v], np.float32).view(np.uint32)[0])  # noqa: E731
    for w0 in range(0, x.size, 32):
        xs = [int(v) for v in x[w0:w0 + 32]]
        active = [l for l in range(32) if xs[l] % 3 != 0]
        mask = sum(1 << l for l in active)
        for l in active:
            i, v, rr = w0 + l, xs[l], int(r[w0 + l])
            rank = active.index(l)

            def pick(src):
                return xs[src] if 0 <= src < 32 and src in active else v
            row = [len(active) | rank << 8 | int(all(xs[a] > 5 for a in active)) << 16
                   | int(any(xs[a] == 7 for a in active)) << 17, mask,
                   xs[active[rr]] if rr < len(active) else v, pick(l ^ (rr % 4)),
                   pick(l + 1 + rr % 3), pick(l - 2),
                   f(np.float32(xs[active[rr % 8]] if rr % 8 < len(active) else v)
                     * np.float32(0.5)),
                   f(np.float32(pick(l + 1)))]
            out[i] = row
    return out


def run(device, rng, n=128):
    x = rng.integers(0, 12, n, dtype=np.uint32)
    x[:32] = 1  # a warp where every lane is in the group
    r = rng.integers(0, 20, n, dtype=np.uint32)
    out = np.full(n * 8, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "co.rs").groups[((n + 63) // 64,), (64,)](x, r, out, device=device)
    return out.reshape(n, 8), expected(x, r)


def test_coalesced_threads_on_the_simulator(rng):
    got, want = run("sim", rng)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_coalesced_threads_assemble(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "co.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    assert "activemask.b32" in ptx
    assemble(ptx, arch)


@pytest.mark.gpu
def test_coalesced_threads_on_gpu(rng):
    got, want = run("gpu", rng, n=512)
    np.testing.assert_array_equal(got, want)


# -- ballot and match: the lanes' bits packed to group ranks (bit r: the lane of rank r) --

VOTES = """
use cuda_device::cooperative_groups::{coalesced_threads, ThreadGroup, WarpCollective};
use cuda_device::{kernel, thread};

#[kernel]
pub unsafe fn votes(x: &[u32], y: &[u64], out: *mut u32) {
    let i = thread::index_1d().get();
    let v = x[i];
    let mut res = [0u32; 4];
    if v % 4 != 1 {
        let g = coalesced_threads();
        res[0] = g.ballot(v > 6);
        res[1] = g.match_any(v % 3);
        res[2] = g.match_all(v / 100) | (g.match_any_i64(y[i]) << 16);
        res[3] = g.match_all_i64(y[i] & 1);
    }
    let mut k = 0;
    while k < 4 {
        *out.add(i * 4 + k) = res[k];
        k += 1;
    }
}
"""


def votes_expected(x, y):
    out = np.zeros((x.size, 4), np.uint32)
    for w0 in range(0, x.size, 32):
        xs, ys = [int(v) for v in x[w0:w0 + 32]], [int(v) for v in y[w0:w0 + 32]]
        active = [l for l in range(32) if xs[l] % 4 != 1]

        def ranks(pred):  # bit r set when the lane of rank r satisfies pred
            return sum(1 << r for r, a in enumerate(active) if pred(a))
        everyone = (1 << len(active)) - 1
        for l in active:
            same_all = everyone if len({xs[a] // 100 for a in active}) == 1 else 0
            odd_all = everyone if len({ys[a] & 1 for a in active}) == 1 else 0
            out[w0 + l] = [ranks(lambda a: xs[a] > 6),
                           ranks(lambda a: xs[a] % 3 == xs[l] % 3),
                           same_all | (ranks(lambda a: ys[a] == ys[l]) << 16) & 0xFFFF_FFFF,
                           odd_all]
    return out


def run_votes(device, rng, n=128):
    x = rng.integers(0, 12, n, dtype=np.uint32)
    x[32:64] = 0  # a warp where every lane is in the group
    y = rng.integers(0, 3, n, dtype=np.uint64) << np.uint64(40)
    y[64:96] |= np.uint64(1)  # match_all_i64 holds in this warp
    out = np.full(n * 4, 0xDEAD_BEEF, np.uint32)
    compile_source(VOTES, "votes.rs").votes[((n + 63) // 64,), (64,)](x, y, out, device=device)
    return out.reshape(n, 4), votes_expected(x, y)


def test_coalesced_ballot_and_match_on_the_simulator(rng):
    got, want = run_votes("sim", rng)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_coalesced_ballot_and_match_assemble(arch, assemble):
    assemble(compile_source(VOTES, "votes.rs", arch=arch).ptx, arch)


@pytest.mark.gpu
def test_coalesced_ballot_and_match_on_gpu(rng):
    got, want = run_votes("gpu", rng, n=512)
    np.testing.assert_array_equal(got, want)
