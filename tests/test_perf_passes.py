"""The passes that close the gap to nvcc on the benchmark kernels: inlining of helpers
(passes/inline.py), full unrolling of constant-stepped `while` loops (full_unroll.py),
unsigned division by 2^k as a shift (pow2_div.py), the 4-way unrolling of grid-stride
loops (loop_unroll.py), checks implied by a loop's test (guard_hoist.py) and by a widened
byte (check_elim.py): what they do to the MIR, and the simulated results against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.mir.cfg import find_loops
from oxidec.mir.syntax import Assign, BinaryOp, Call, Copy, Intrinsic
from oxidec.sim import SimTrap, run_kernel


def compile_(src: str, stop: str = "ptx"):
    return driver.compile_source(src, "perf.rs", driver.Options(stop=stop, index32=False))


def body_of(comp, name: str):
    return next(b for b in comp.program.bodies if b.name == name)


def calls(body) -> list[str]:
    return [b.terminator.func for b in body.blocks if isinstance(b.terminator, Call)]


def binary_ops(body) -> list[str]:
    return [s.rvalue.op for b in body.blocks for s in b.statements
            if isinstance(s, Assign) and isinstance(s.rvalue, BinaryOp)]


# ---------------------------------------------------------------------------
# inline.py

HELPERS = """
#[device]
fn sq(x: u32) -> u32 { x.wrapping_mul(x) }

#[device]
fn sq_plus(x: u32, y: u32) -> u32 {
    let mut s = sq(x);
    if y > s { s = y; }
    s.wrapping_add(1)
}

#[device]
#[inline(never)]
fn cube(x: u32) -> u32 { x.wrapping_mul(x).wrapping_mul(x) }

#[kernel]
pub fn k(x: &[u32], y: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = sq_plus(x[i], y[i]) ^ cube(x[i]) ^ sq(y[i]);
    }
}
"""


def test_helpers_are_inlined_but_inline_never_is_a_call() -> None:
    comp = compile_(HELPERS)
    assert calls(body_of(comp, "k")) == ["cube"]
    # sq_plus (and its own call of sq) inlined: no kernel calls either any more, and
    # neither is written as a `.func` (passes/dead_functions.py)
    assert [b.name for b in comp.program.bodies] == ["cube", "k"]
    assert ".func (.param .b32 func_retval0) cube(" in comp.ptx
    assert "sq_plus" not in comp.ptx and "sq(" not in comp.ptx
    assert "cube," in comp.ptx.split(".entry k")[1]


def test_a_library_without_kernels_keeps_its_functions() -> None:
    comp = compile_("""
#[device]
fn twice(x: u32) -> u32 { x.wrapping_mul(2) }
#[device]
fn unused(x: u32) -> u32 { twice(x) + 1 }
""")
    assert [b.name for b in comp.program.bodies] == ["twice", "unused"]
    assert "twice(" in comp.ptx and "unused(" in comp.ptx


def test_inlined_helpers_compute_what_the_calls_did(rng) -> None:
    comp = compile_(HELPERS)
    n = 1000
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    y = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = np.full(n, 0xDEADBEEF, np.uint32)
    run_kernel(comp.program, "k", (4, 1, 1), (256, 1, 1), [x, y, out])
    x64, y64 = x.astype(np.uint64), y.astype(np.uint64)
    m = np.uint64(0xFFFFFFFF)
    s = np.maximum((x64 * x64) & m, y64)
    want = ((s + 1) & m) ^ ((((x64 * x64) & m) * x64) & m) ^ ((y64 * y64) & m)
    np.testing.assert_array_equal(out, want.astype(np.uint32))


def test_inlining_is_off_below_o2() -> None:
    comp = driver.compile_source(HELPERS, "perf.rs", driver.Options(opt_level=1, stop="mir-opt"))
    assert sorted(calls(body_of(comp, "k"))) == ["cube", "sq", "sq_plus"]


# ---------------------------------------------------------------------------
# full_unroll.py

TREE = """
const BLOCK: usize = 256;

#[device]
fn warp_scan(value: u32, lane: u32) -> u32 {
    let mut v = value;
    let mut delta = 1u32;
    while delta < 32 {
        let up = warp::shuffle_up_u32(v, delta);
        if lane >= delta { v = v.wrapping_add(up); }
        delta *= 2;
    }
    v
}

#[kernel]
#[launch_contract(block = (BLOCK, 1, 1))]
pub fn k(x: &[f32], mut sums: DisjointSlice<f32>, mut scans: DisjointSlice<u32>) {
    static mut S: SharedArray<f32, BLOCK> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let i = idx.get();
    let tid = thread::threadIdx_x() as usize;
    let lane = warp::lane_id();
    unsafe { S[tid] = if i < x.len() { x[i] } else { 0.0 }; }
    thread::sync_threads();
    let mut half = BLOCK / 2;
    while half >= 32 {
        if tid < half {
            unsafe { S[tid] += S[tid + half]; }
        }
        thread::sync_threads();
        half /= 2;
    }
    if tid < 32 {
        let mut v = unsafe { S[tid] };
        let mut offset = 16u32;
        while offset > 0 {
            v += warp::shuffle_down_f32(v, offset);
            offset >>= 1;
        }
        if tid == 0 {
            // sound: one block writes one element, and the test launches len(sums) blocks
            unsafe { *sums.get_unchecked_mut(thread::blockIdx_x() as usize) = v; }
        }
    }
    let scanned = warp_scan(i as u32, lane);
    if let Some(o) = scans.get_mut(idx) { *o = scanned; }
}
"""


def tree_reference(x: np.ndarray, blocks: int) -> np.ndarray:
    """The kernel's order of f32 additions, block by block."""
    out = np.empty(blocks, np.float32)
    for b in range(blocks):
        s = np.zeros(256, np.float32)
        part = x[b * 256:(b + 1) * 256]
        s[:len(part)] = part
        half = 128
        while half >= 32:
            s[:half] = s[:half] + s[half:2 * half]
            half //= 2
        v = s[:32].copy()
        offset = 16
        while offset > 0:
            shifted = np.concatenate([v[offset:], v[32 - offset:]])  # lanes past 31 keep v
            v = v + shifted
            offset >>= 1
        out[b] = v[0]
    return out


def test_constant_stepped_while_loops_become_straight_code() -> None:
    comp = compile_(TREE, "mir-opt")
    assert [b.name for b in comp.program.bodies] == ["k"]  # warp_scan inlined, then dropped
    assert find_loops(body_of(comp, "k")) == []


def test_unrolled_tree_and_scans_compute_the_same(rng) -> None:
    comp = compile_(TREE)
    blocks = 5
    x = rng.standard_normal(blocks * 256 - 37).astype(np.float32)
    sums = np.full(blocks, np.nan, np.float32)
    scans = np.full(blocks * 256, 0xDEADBEEF, np.uint32)
    run_kernel(comp.program, "k", (blocks, 1, 1), (256, 1, 1), [x, sums, scans])
    np.testing.assert_array_equal(sums, tree_reference(x, blocks))
    i = np.arange(blocks * 256, dtype=np.uint64)
    warp_start = i - (i % 32)
    want = ((warp_start + i) * (i - warp_start + 1) // 2) & 0xFFFFFFFF  # inclusive sum per warp
    np.testing.assert_array_equal(scans, want.astype(np.uint32))


LONG = """
#[kernel]
pub fn k(mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let mut s = 0u64;
    let mut step = 1u64;
    while step < (1u64 << 40) {
        s = s.wrapping_add(step ^ (idx.get() as u64));
        step *= 2;
    }
    if let Some(o) = out.get_mut(idx) { *o = s; }
}
"""


def test_a_loop_of_more_than_max_trips_stays_a_loop_and_runs(rng) -> None:
    comp = compile_(LONG)
    assert len(find_loops(body_of(comp, "k"))) == 1
    out = np.full(100, 0xDEADBEEF, np.uint64)
    run_kernel(comp.program, "k", (1, 1, 1), (100, 1, 1), [out])
    want = [sum((1 << j) ^ t for j in range(40)) % 2**64 for t in range(100)]
    np.testing.assert_array_equal(out, np.array(want, np.uint64))


# ---------------------------------------------------------------------------
# pow2_div.py

DIVS = """
#[kernel]
pub fn k(a: &[u32], b: &[u64], c: &[i32], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let x = a[i];
        let y = b[i];
        let z = c[i];
        let u = (x / 8) as u64 ^ (x % 32) as u64 ^ (x / 1) as u64 ^ ((x / 2147483648) as u64) << 40;
        let v = y / 4096 ^ y % 2 ^ (y % 9223372036854775808) << 1;
        let w = (z / 8) as i64 as u64 ^ (z % 4) as i64 as u64;
        *o = u ^ v.rotate_left(7) ^ w.rotate_left(21);
    }
}
"""


def test_unsigned_divisions_by_powers_of_two_are_shifts() -> None:
    comp = compile_(DIVS, "mir-opt")
    ops = binary_ops(body_of(comp, "k"))
    # the unsigned ones became shifts and masks; the signed ones stay divisions
    assert ops.count("div") == 1 and ops.count("rem") == 1
    assert ops.count("shr") >= 3 and ops.count("bitand") >= 3


def test_shifted_divisions_compute_the_quotients(rng) -> None:
    comp = compile_(DIVS)
    n = 600
    a = rng.integers(0, 2**32, n, dtype=np.uint32)
    b = rng.integers(0, 2**64, n, dtype=np.uint64)
    c = rng.integers(-2**31, 2**31, n, dtype=np.int32)
    out = np.full(n, 0xDEADBEEF, np.uint64)
    run_kernel(comp.program, "k", (3, 1, 1), (256, 1, 1), [a, b, c, out])
    m64 = 2**64 - 1

    def rotl(v, r):
        return ((v << r) | (v >> (64 - r))) & m64

    want = []
    for x, y, z in zip(a.tolist(), b.tolist(), c.tolist()):
        u = (x // 8) ^ (x % 32) ^ x ^ ((x // 2**31) << 40)
        v = (y // 4096) ^ (y % 2) ^ (((y % 2**63) << 1) & m64)
        sign = 1 if z >= 0 else -1  # Rust's / and % truncate toward zero
        q, r = abs(z) // 8 * sign, abs(z) % 4 * sign
        w = (q & m64) ^ (r & m64)
        want.append(u ^ rotl(v, 7) ^ rotl(w, 21))
    np.testing.assert_array_equal(out, np.array(want, np.uint64))


# ---------------------------------------------------------------------------
# loop_unroll.py: grid-stride loops

STRIDE = """
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
    let t = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    let mut i = t;
    let mut acc = 0.0f32;
    while i < x.len() {
        acc += x[i];
        i += stride;
    }
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = acc; }
}
"""


def test_a_grid_stride_loop_is_unrolled_four_times() -> None:
    comp = compile_(STRIDE, "mir-opt")
    body = body_of(comp, "k")
    loads = [sum(isinstance(s, Assign) and isinstance(s.rvalue, BinaryOp)
                 and isinstance(s.rvalue.rhs, Copy) and s.rvalue.rhs.place.projection != ()
                 for s in b.statements) for b in body.blocks]
    assert max(loads) == 4
    assert len(find_loops(body)) == 2  # the main loop and the remainder loop


def test_the_unrolled_grid_stride_loop_adds_in_the_same_order(rng) -> None:
    comp = compile_(STRIDE)
    threads = 2 * 64
    for n in (0, 5, threads * 4, threads * 4 + 77, threads * 9 + 3):
        x = rng.standard_normal(n).astype(np.float32)
        out = np.full(threads, np.nan, np.float32)
        run_kernel(comp.program, "k", (2, 1, 1), (64, 1, 1), [x, out])
        want = np.zeros(threads, np.float32)
        for start in range(0, n, threads):  # f32 additions in the loop's order
            part = x[start:start + threads]
            want[:len(part)] = want[:len(part)] + part
        np.testing.assert_array_equal(out, want)


# ---------------------------------------------------------------------------
# guard_hoist.py: the second slice's check in a grid-stride loop

DOT = """
#[kernel]
pub fn k(a: &[f32], b: &[f32], mut out: DisjointSlice<f32>) {
    let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
    let mut i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    let mut acc = 0.0f32;
    while i < a.len() {
        acc = a[i].mul_add(b[i], acc);
        i += stride;
    }
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = acc; }
}
"""


def test_a_check_implied_by_the_loop_test_leaves_the_fast_loop() -> None:
    from oxidec.mir.syntax import Assert
    body = body_of(compile_(DOT, "mir-opt"), "k")
    unrolled = [b for b in body.blocks if sum(isinstance(s, Assign) and isinstance(s.rvalue, Intrinsic)
                                              and s.rvalue.name == "fma" for s in b.statements) == 4]
    assert len(unrolled) == 1  # the checked copy of the loop stays as it was
    assert any(isinstance(b.terminator, Assert) and not b.terminator.expected
               for b in body.blocks)


def test_the_versioned_dot_computes_and_traps_as_before(rng) -> None:
    comp = compile_(DOT)
    threads = 96
    for n in (7, threads * 4 + 5, threads * 11):
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n + 3).astype(np.float32)  # longer: fine
        out = np.full(threads, np.nan, np.float32)
        run_kernel(comp.program, "k", (3, 1, 1), (32, 1, 1), [a, b, out])
        want = np.zeros(threads, np.float32)
        for start in range(0, n, threads):  # the kernel's order of f32 fmas
            m = min(threads, n - start)
            prod = a[start:start + m].astype(np.float64) * b[start:start + m]
            want[:m] = (prod + want[:m]).astype(np.float32)  # fma: one rounding
        np.testing.assert_array_equal(out, want)
    a = rng.standard_normal(200).astype(np.float32)
    b = rng.standard_normal(150).astype(np.float32)  # shorter: b[150] traps
    with pytest.raises(SimTrap, match=r"index out of bounds at perf.rs:8:28"):
        run_kernel(comp.program, "k", (3, 1, 1), (32, 1, 1), [a, b, np.zeros(96, np.float32)])


# ---------------------------------------------------------------------------
# check_elim.py: a widened u8 indexes a 256-entry table without a check

HIST = """
#[kernel]
#[launch_contract(block = (256, 1, 1))]
pub fn k(data: &[u8], mut partial: DisjointSlice<u32>) {
    static mut H: SharedArray<u32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe { H[t] = 0; }
    thread::sync_threads();
    let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
    let mut i = thread::blockIdx_x() as usize * 256 + t;
    while i < data.len() {
        let bin = data[i] as usize;
        BlockAtomicU32::from_mut(unsafe { &mut H[bin] }).fetch_add(1, AtomicOrdering::Relaxed);
        i += stride;
    }
    thread::sync_threads();
    if let Some(o) = partial.get_mut(thread::index_1d()) { *o = unsafe { H[t] }; }
}
"""


def test_a_widened_byte_needs_no_check_and_the_atomic_loop_unrolls(rng) -> None:
    from oxidec.mir.syntax import Assert, AtomicOp
    body = body_of(compile_(HIST, "mir-opt"), "k")
    assert not any(isinstance(b.terminator, Assert) for b in body.blocks)
    assert max(sum(isinstance(s, AtomicOp) for s in b.statements) for b in body.blocks) == 4
    comp = compile_(HIST)
    blocks = 3
    for n in (1000, 256 * blocks * 4 * 3 + 17):
        data = rng.integers(0, 256, n, dtype=np.uint8)
        partial = np.full(256 * blocks, 0xDEADBEEF, np.uint32)
        run_kernel(comp.program, "k", (blocks, 1, 1), (256, 1, 1), [data, partial])
        np.testing.assert_array_equal(partial.reshape(blocks, 256).sum(axis=0),
                                      np.bincount(data, minlength=256))


# ---------------------------------------------------------------------------
# check_elim.py: warp and lane numbers are bounded by the block shape

WARPS = """
#[kernel]
#[launch_contract(block = (256, 1, 1))]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut PER_WARP: SharedArray<u32, 8> = SharedArray::UNINIT;
    static mut PER_LANE: SharedArray<u32, 32> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let i = idx.get();
    let v = if i < x.len() { x[i] } else { 0 };
    if warp::lane_id() == 0 {
        unsafe { PER_WARP[warp::warp_id() as usize] = v; }
    }
    if warp::warp_id() == 0 {
        unsafe { PER_LANE[warp::lane_id() as usize] = v; }
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { PER_WARP[warp::warp_id() as usize] ^ PER_LANE[warp::lane_id() as usize] };
    }
}
"""


def test_warp_and_lane_indexes_need_no_checks_and_run(rng) -> None:
    from oxidec.mir.syntax import Assert
    body = body_of(compile_(WARPS, "mir-opt"), "k")
    assert not any(isinstance(b.terminator, Assert) for b in body.blocks)
    comp = compile_(WARPS)
    x = rng.integers(0, 2**32, 512, dtype=np.uint32)
    out = np.full(512, 0xDEADBEEF, np.uint32)
    run_kernel(comp.program, "k", (2, 1, 1), (256, 1, 1), [x, out])
    i = np.arange(512)
    per_warp = x[(i // 32) * 32]          # lane 0 of each thread's warp, in its own block
    per_lane = x[(i // 256) * 256 + i % 32]  # warp 0's lane, in its own block
    np.testing.assert_array_equal(out, per_warp ^ per_lane)


# ---------------------------------------------------------------------------
# inline.py: a `&mut DisjointSlice` parameter keeps its call (inlined, ref_elim would forward
# the caller's slice into `(*_p)[i]` as `_s[i]`)

MUT_OUT = """
#[device]
fn put(out: &mut DisjointSlice<u32>, idx: ThreadIndex, v: u32) {
    if let Some(o) = out.get_mut(idx) { *o = v; }
}

#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = if i < x.len() { x[i].wrapping_mul(3) } else { 0 };
    put(&mut out, idx, v);
}
"""


def test_a_helper_taking_mut_disjoint_slice_stays_a_call() -> None:
    # (tests/run/test_disjoint_through_ref.py runs such helpers)
    comp = compile_(MUT_OUT, "mir-opt")
    assert calls(body_of(comp, "k")) == ["put"]


def test_an_inlined_mut_ref_helper_keeps_its_variable_in_registers(rng) -> None:
    # the same kernel as test_borrowck's ref_elim case without #[inline(never)]: inlined,
    # `&mut v` is a register's address no more, and ref_elim removes it
    src = """
#[device]
fn bump(x: &mut f32, by: f32) { *x += by; }
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut v = x[idx.get()];
    bump(&mut v, 1.5);
    if let Some(o) = out.get_mut(idx) { *o = v; }
}
"""
    comp = compile_(src)
    assert ".local" not in comp.ptx.split(".entry k")[1]
    x = rng.uniform(-4, 4, 64).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    run_kernel(comp.program, "k", (1, 1, 1), (64, 1, 1), [x, out])
    np.testing.assert_array_equal(out, x + np.float32(1.5))
