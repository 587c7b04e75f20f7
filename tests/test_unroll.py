"""Full unrolling of constant-trip `for` loops in lowering: `#[unroll]`, small loops by
default, `#[unroll(N)]` when N covers the trip count; break/continue keep their meaning."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from oxidec import driver
from oxidec.mir.cfg import successors
from oxidec.sim import run_kernel

ROOT_UI = Path(__file__).resolve().parent / "ui"

SRC = """
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let mut acc = 0u32;
        #[unroll]
        for j in 0..16 {
            if j == 3 { continue; }
            if x[i] % 16 == j { break; }
            acc += x[i] * j;
        }
        #[unroll(4)]
        for j in (0..20).step_by(7) {
            acc ^= j;
        }
        for j in 0..40 {
            acc += j;
        }
        *o = acc;
    }
}
"""


def reference(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for n, v in enumerate(x.tolist()):
        acc = 0
        for j in range(16):
            if j == 3:
                continue
            if v % 16 == j:
                break
            acc = (acc + v * j) & 0xFFFFFFFF
        for j in range(0, 20, 7):
            acc ^= j
        for j in range(40):
            acc = (acc + j) & 0xFFFFFFFF
        out[n] = acc
    return out


def back_edges(body) -> int:
    """Edges into a block that is still on the depth-first search stack: one per loop."""
    count, state = 0, {}
    stack = [(0, iter(successors(body.blocks[0].terminator)))]
    state[0] = "open"
    while stack:
        b, it = stack[-1]
        t = next(it, None)
        if t is None:
            state[b] = "done"
            stack.pop()
        elif state.get(t) == "open":
            count += 1
        elif t not in state:
            state[t] = "open"
            stack.append((t, iter(successors(body.blocks[t].terminator))))
    return count


def test_unrolled_loops_keep_their_meaning(rng) -> None:
    comp = driver.compile_source(SRC, "unroll.rs")
    x = rng.integers(0, 2**32, 1000, dtype=np.uint32)
    out = np.full(1000, 0xDEADBEEF, np.uint32)
    run_kernel(comp.program, "k", (4, 1, 1), (256, 1, 1), [x, out])
    np.testing.assert_array_equal(out, reference(x))


def test_only_the_long_loop_stays_a_loop() -> None:
    comp = driver.compile_source(SRC, "unroll.rs", driver.Options(stop="mir"))
    (body,) = comp.program.bodies
    # The 16- and 3-trip loops are unrolled; the 40-trip loop without #[unroll] is not.
    assert back_edges(body) == 1


HUGE = """
#[kernel]
pub fn k(mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let mut s = 0u64;
    #[unroll]
    for j in 0..100000000u64 { s = s.wrapping_add(j); }
    for j in (0..u64::MAX).step_by(3) { s ^= j; if s > 7 { break; } }
    if let Some(o) = out.get_mut(idx) { *o = s; }
}
"""


def test_a_huge_trip_count_is_refused_arithmetically() -> None:
    # The trip count is checked before any list of trips exists: 10^8 trips would take
    # gigabytes and 0..u64::MAX overflow Python's sizes; both loops stay loops.
    import tracemalloc
    tracemalloc.start()
    try:
        comp = driver.compile_source(HUGE, "huge.rs", driver.Options(stop="mir"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    (body,) = comp.program.bodies
    assert back_edges(body) == 2
    assert peak < 200 * 2**20


def test_a_mut_ref_in_an_unrolled_body_runs() -> None:
    src = (ROOT_UI / "accept_mut_ref_in_unrolled_loop.rs").read_text()
    comp = driver.compile_source(src, "k.rs")
    out = np.full(70, 0xDEADBEEF, np.uint32)
    run_kernel(comp.program, "k", (1, 1, 1), (70, 1, 1), [out])
    v = 1
    for j in range(3):
        v = v * 3 + j
    assert (out == v).all()


def test_if_let_on_a_tuple_of_options_runs(rng) -> None:
    src = (ROOT_UI / "accept_if_let_tuple_of_options.rs").read_text()
    comp = driver.compile_source(src, "k.rs")
    a = rng.integers(1, 2**32, 100, dtype=np.uint32)
    out = np.full(128, 0xDEADBEEF, np.uint32)
    run_kernel(comp.program, "k", (1, 1, 1), (128, 1, 1), [a, out])
    want = np.full(128, 7, np.uint32)
    want[:99] = a[:99] ^ a[1:]
    np.testing.assert_array_equal(out, want)
