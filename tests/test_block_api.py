"""Block-level cooperation (issue 4): shared memory, barriers, atomics, warp collectives,
gpu_printf!, traps. Source kernels go through the whole front end; each feature is checked
in MIR (what lowering produces and that the passes keep it), in PTX (the instructions, and
that ptxas takes them for sm_80 and sm_90) and on the simulator (against NumPy). The `gpu`
tests run the same kernels on the GPU against the simulator.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec import types as T
from oxidec.diagnostics import CompileError, render_all
from oxidec.mir import syntax as M
from oxidec.mir.pretty import pretty_program, pretty_statement
from oxidec.mir.verify import MirVerifyError, verify_body, verify_program
from oxidec.passes import optimize
from oxidec.mir.cfg import reachable, successors
from oxidec.printf import format_c
from oxidec.sim import SimTrap, run_kernel
from oxidec.span import DUMMY_SPAN
from samples.reference import fma32

ROOT = Path(__file__).resolve().parents[1]


def build(src: str, stop: str = "ptx", arch: str = "sm_80", **opts) -> driver.Compilation:
    options = driver.Options(arch=arch, stop=stop, **{"index32": False, **opts})
    try:
        return driver.compile_source(src, "block_api.rs", options)
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def assemble(ptx: str, ptxas: str, tmp_path: Path, arch: str) -> str:
    path = tmp_path / f"k_{arch}.ptx"
    path.write_text(ptx)
    result = subprocess.run([ptxas, f"-arch={arch}", "-v", str(path), "-o",
                             str(tmp_path / "k.cubin")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\n" + ptx
    return result.stderr


def statements(program: M.Program, kind) -> list:
    return [s for body in program.bodies for b in body.blocks for s in b.statements
            if isinstance(s, kind)]


# ---------------------------------------------------------------------------------------
# Atomics

ATOMICS = """
#[device]
#[inline(never)] // a call: its atomic goes through a generic pointer
fn bump(c: DeviceAtomicU32) -> u32 {
    c.fetch_add(1, AtomicOrdering::Relaxed)
}

#[kernel]
pub fn atomics(counts: *mut u32, mut ints: DisjointSlice<i32>, mut wide: DisjointSlice<u64>,
               mut floats: DisjointSlice<f32>, mut doubles: DisjointSlice<f64>,
               mut out: DisjointSlice<u32>) {
    static mut CELL: SharedArray<u32, 4> = SharedArray::UNINIT;
    static mut FCELL: SharedArray<f32, 2> = SharedArray::UNINIT;
    let t = thread::threadIdx_x();
    let idx = thread::index_1d();
    if t == 0 {
        unsafe {
            CELL[0] = 0;
            CELL[1] = 0xffff_ffff;
            CELL[2] = 0;
            CELL[3] = 0;
            FCELL[0] = 0.0;
            FCELL[1] = 0.0;
        }
    }
    thread::sync_threads();
    let ticket = unsafe { DeviceAtomicU32::from_ptr(counts) }.fetch_add(1, AtomicOrdering::AcqRel);
    let c1 = unsafe { DeviceAtomicU32::from_ptr(counts.add(1)) };
    c1.fetch_max(t * 3 % 7, AtomicOrdering::Relaxed);
    bump(unsafe { DeviceAtomicU32::from_ptr(counts.add(2)) });
    let s0 = BlockAtomicU32::from_mut(unsafe { &mut CELL[0] });
    let s1 = BlockAtomicU32::from_mut(unsafe { &mut CELL[1] });
    let s2 = BlockAtomicU32::from_mut(unsafe { &mut CELL[2] });
    let s3 = BlockAtomicU32::from_mut(unsafe { &mut CELL[3] });
    s0.fetch_or(1 << (t % 32), AtomicOrdering::Relaxed);
    s1.fetch_and(!(1 << (t % 32)), AtomicOrdering::Release);
    s2.fetch_xor(t, AtomicOrdering::Acquire);
    let won = match s3.compare_exchange(0, t + 1, AtomicOrdering::Release, AtomicOrdering::Acquire) {
        Ok(previous) => previous,
        Err(previous) => previous + 100,
    };
    let i0 = DeviceAtomicI32::from_slice_elem(&ints, 0);
    i0.fetch_sub(t as i32, AtomicOrdering::SeqCst);
    DeviceAtomicI32::from_slice_elem(&ints, 1).fetch_min(5 - t as i32, AtomicOrdering::Relaxed);
    DeviceAtomicU64::from_slice_elem(&wide, 0).fetch_add(1u64 << 33, AtomicOrdering::Relaxed);
    DeviceAtomicU64::from_slice_elem(&wide, 1).swap(t as u64, AtomicOrdering::Relaxed);
    DeviceAtomicF32::from_slice_elem(&floats, 0).fetch_add(0.5, AtomicOrdering::Relaxed);
    DeviceAtomicF32::from_slice_elem(&floats, 1).fetch_sub(0.25, AtomicOrdering::Relaxed);
    DeviceAtomicF64::from_slice_elem(&doubles, 0).fetch_add(t as f64, AtomicOrdering::Relaxed);
    let f0 = BlockAtomicF32::from_mut(unsafe { &mut FCELL[0] });
    f0.fetch_add(1.0, AtomicOrdering::Relaxed);
    let f1 = BlockAtomicF32::from_mut(unsafe { &mut FCELL[1] });
    let _ = f1.compare_exchange(0.0, -1.5, AtomicOrdering::Relaxed);
    f1.store(f1.load(AtomicOrdering::Acquire) * 2.0, AtomicOrdering::SeqCst);
    thread::sync_threads();
    if let Some(o) = out.get_mut(idx) {
        let loaded = s0.load(AtomicOrdering::SeqCst) ^ s1.load(AtomicOrdering::Relaxed)
            ^ s2.load(AtomicOrdering::Acquire);
        *o = if t == 0 {
            loaded
        } else if t == 1 {
            won
        } else if t == 2 {
            s3.load(AtomicOrdering::Relaxed)
        } else if t == 3 {
            f0.load(AtomicOrdering::Relaxed) as u32
        } else if t == 4 {
            (f1.load(AtomicOrdering::Relaxed) * -10.0) as u32
        } else {
            ticket
        };
    }
}
"""


def test_atomics_lower_to_atomic_ops():
    comp = build(ATOMICS, stop="mir")
    ops = statements(comp.program, M.AtomicOp)
    got = {(s.op, s.ordering, s.scope) for s in ops}
    assert {("add", "acq_rel", "gpu"), ("max", "relaxed", "gpu"), ("add", "relaxed", "gpu"),
            ("or", "relaxed", "cta"), ("and", "release", "cta"), ("xor", "acquire", "cta"),
            ("cas", "acq_rel", "cta"), ("sub", "seq_cst", "gpu"), ("min", "relaxed", "gpu"),
            ("exch", "relaxed", "gpu"), ("load", "seq_cst", "cta"), ("store", "seq_cst", "cta"),
            ("load", "acquire", "cta"), ("cas", "relaxed", "cta")} <= got
    store = next(s for s in ops if s.op == "store")
    assert store.dest is None
    text = pretty_program(comp.program)
    assert re.search(r"_\d+ = atomic add\(copy _\d+, const 1_u32\) \[relaxed, gpu\];", text)
    assert re.search(r"atomic store\(copy _\d+, move _\d+\) \[seq_cst, cta\];", text) or \
        re.search(r"atomic store\(copy _\d+, copy _\d+\) \[seq_cst, cta\];", text)
    verify_program(comp.program)


def test_from_slice_elem_is_bounds_checked():
    src = """
#[kernel]
pub fn k(mut out: DisjointSlice<u32>, i: usize) {
    DeviceAtomicU32::from_slice_elem(&out, i).fetch_add(1, AtomicOrdering::Relaxed);
}
"""
    comp = build(src, stop="mir-opt")
    (body,) = comp.program.bodies
    asserts = [b.terminator for b in body.blocks if isinstance(b.terminator, M.Assert)]
    assert [a.message for a in asserts] == ["index out of bounds"]
    out = np.zeros(4, np.uint32)
    with pytest.raises(SimTrap, match="index out of bounds"):
        run_kernel(comp.program, "k", (1,), (32,), [out, np.uint64(4)])
    run_kernel(comp.program, "k", (1,), (32,), [out, np.uint64(3)])
    assert out.tolist() == [0, 0, 0, 32]


def test_passes_keep_atomics_whose_result_is_unused():
    src = """
#[kernel]
pub fn k(counts: *mut u32) {
    let c = unsafe { DeviceAtomicU32::from_ptr(counts) };
    c.fetch_add(1, AtomicOrdering::Relaxed);
    let unused = c.swap(7, AtomicOrdering::Relaxed);
    c.fetch_add(1, AtomicOrdering::Relaxed);
}
"""
    mir = build(src, stop="mir").program
    opt = build(src, stop="mir-opt").program
    before = [(s.op, s.args) for s in statements(mir, M.AtomicOp)]
    after = [(s.op, s.args) for s in statements(opt, M.AtomicOp)]
    assert [op for op, _ in after] == ["add", "exch", "add"] == [op for op, _ in before]
    ptx = build(src).ptx
    assert len(re.findall(r"\batom\.", ptx)) == 3
    counts = np.array([5], np.uint32)
    run_kernel(opt, "k", (2,), (64,), [counts])
    assert counts[0] == 7 + 128  # every lane adds 1 after the swaps; the last swap wrote 7


def test_atomics_on_the_simulator():
    comp = build(ATOMICS)
    counts = np.array([100, 0, 0], np.uint32)
    ints = np.array([0, 1000], np.int32)
    wide = np.zeros(2, np.uint64)
    floats = np.array([0.0, 1.0], np.float32)
    doubles = np.zeros(1, np.float64)
    n = 64
    out = np.zeros(n, np.uint32)
    run_kernel(comp.program, "atomics", (1,), (n,), [counts, ints, wide, floats, doubles, out])
    t = np.arange(n)
    assert counts.tolist() == [100 + n, (t * 3 % 7).max(), n]
    assert ints.tolist() == [-int(t.sum()), 5 - (n - 1)]
    assert wide[0] == n << 33 and wide[1] == n - 1  # the last lane's swap lands last
    assert floats.tolist() == [0.5 * n, 1.0 - 0.25 * n] and doubles[0] == t.sum()
    # or of all lane bits (2 warps: every bit), and of ~bit (all bits cleared), xor of t
    xor_t = int(np.bitwise_xor.reduce(t))
    assert out[0] == 0xFFFF_FFFF ^ 0 ^ xor_t
    # lane 0's compare_exchange wins (CELL[3] = 0 + 1): Ok(0); lane 1 then fails: Err(1)
    assert out[1] == 101 and out[2] == 1
    assert out[3] == n and out[4] == 30  # f1: cas 0.0 -> -1.5 once, then 64 x (x * 2.0)
    assert sorted(out[5:].tolist()) == list(range(105, 100 + n))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_atomic_ptx(arch, ptxas, tmp_path):
    ptx = build(ATOMICS, arch=arch).ptx
    for needle in [
        "atom.acq_rel.gpu.global.add.u32", "atom.relaxed.gpu.global.max.u32",
        "atom.relaxed.gpu.add.u32",  # through the device function's generic pointer
        "atom.relaxed.cta.shared.or.b32", "atom.release.cta.shared.and.b32",
        "atom.acquire.cta.shared.xor.b32", "atom.acq_rel.cta.shared.cas.b32",
        "fence.sc.gpu;", "atom.acq_rel.gpu.global.add.s32",  # SeqCst fetch_sub: add of -t
        "atom.relaxed.gpu.global.min.s32", "atom.relaxed.gpu.global.add.u64",
        "atom.relaxed.gpu.global.exch.b64", "atom.relaxed.gpu.global.add.f32",
        "atom.relaxed.gpu.global.add.f64", "atom.relaxed.cta.shared.add.f32",
        "atom.relaxed.cta.shared.cas.b32", "ld.acquire.cta.shared.f32",
        "fence.sc.cta;", "st.release.cta.shared.f32", "ld.relaxed.cta.shared.u32",
    ]:
        assert needle in ptx, needle
    assert "0fBE800000" in ptx  # fetch_sub(0.25) adds -0.25
    assemble(ptx, ptxas, tmp_path, arch)


def test_atomic_verifier_errors():
    body = M.Body("k", "kernel", 1, [
        M.LocalDecl(T.UNIT, None, True, DUMMY_SPAN),
        M.LocalDecl(T.PtrTy(T.F32, True), "p", False, DUMMY_SPAN),
        M.LocalDecl(T.U32, None, True, DUMMY_SPAN),
    ], [M.BasicBlock([
        M.AtomicOp(M.Place(2), "load", M.Copy(M.Place(1)), (), "release", "gpu", DUMMY_SPAN),
        M.AtomicOp(M.Place(2), "xor", M.Copy(M.Place(1)), (M.Constant(1.0, T.F32),), "relaxed",
                   "cta", DUMMY_SPAN),
        M.AtomicOp(M.Place(2), "store", M.Copy(M.Place(1)), (M.Constant(1.0, T.F32),),
                   "relaxed", "cluster", DUMMY_SPAN),
    ], M.Return(DUMMY_SPAN))], DUMMY_SPAN)
    with pytest.raises(MirVerifyError) as info:
        verify_body(body)
    text = str(info.value)
    for msg in ["an atomic load with `release` ordering", "atomic xor on `f32`",
                "with an operand of type `u32`", "atomic store has a destination",
                "unknown atomic scope `cluster`"]:
        assert msg in text, msg
    stmt = body.blocks[0].statements[1]
    assert pretty_statement(stmt) == "_2 = atomic xor(copy _1, const 1.0_f32) [relaxed, cta];"


# ---------------------------------------------------------------------------------------
# Barriers: never duplicated, never moved into a branch

BARRIERS = """
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>, rounds: u32) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let idx = thread::index_1d();
    let i = idx.get();
    unsafe { S[t] = if i < x.len() { x[i] } else { 0.0 }; }
    thread::sync_threads();
    let mut r = 0;
    while r < rounds {
        let v = unsafe { S[(t + 1) % 256] };
        thread::sync_threads();
        unsafe { S[t] = v; }
        thread::sync_threads();
        r += 1;
    }
    if rounds > 2 {
        thread::sync_threads();
    }
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { S[t] };
    }
}
"""


def _barrier_blocks(body: M.Body) -> list[int]:
    return [b for b, block in enumerate(body.blocks) for s in block.statements
            if isinstance(s, M.Effect) and s.name == "sync_threads"]


def _reached_without(body: M.Body, avoid: int) -> list[bool]:
    """Blocks reachable from the entry on paths that do not pass through block `avoid`."""
    seen = [False] * len(body.blocks)
    stack = [0] if avoid != 0 else []
    while stack:
        b = stack.pop()
        if seen[b]:
            continue
        seen[b] = True
        stack.extend(s for s in successors(body.blocks[b].terminator) if s != avoid)
    return seen


def _returns(body: M.Body) -> list[int]:
    return [b for b, block in enumerate(body.blocks) if isinstance(block.terminator, M.Return)]


@pytest.mark.parametrize("level", [0, 1, 2])
def test_passes_neither_duplicate_nor_move_barriers(level):
    mir = build(BARRIERS, stop="mir", opt_level=level).program
    (before,) = mir.bodies
    opt = build(BARRIERS, stop="mir-opt", opt_level=level).program
    (after,) = opt.bodies
    live = reachable(before)
    assert len([b for b in _barrier_blocks(before) if live[b]]) == 4
    assert len(_barrier_blocks(after)) == 4
    # The first barrier is on every path to the exit before and after: it was not moved
    # under a condition (nor is any barrier reached twice per loop iteration).
    first = _barrier_blocks(after)[0]
    reach = _reached_without(after, first)
    assert not any(reach[r] for r in _returns(after))
    ptx = build(BARRIERS, opt_level=level).ptx
    assert ptx.count("bar.sync \t0;") == 4


def test_barriers_order_shared_stores_and_loads_in_ptx():
    ptx = build(BARRIERS).ptx
    body = ptx[ptx.index(".entry"):]
    first_store = body.index("st.shared.f32")
    first_bar = body.index("bar.sync")
    first_load = body.index("ld.shared.f32")
    assert first_store < first_bar < first_load


def test_barrier_kernel_runs_on_the_simulator():
    comp = build(BARRIERS)
    x = np.arange(300, dtype=np.float32)
    out = np.full(300, np.nan, np.float32)
    run_kernel(comp.program, "k", (2,), (256,), [x, out, np.uint32(3)])
    padded = np.zeros(512, np.float32)
    padded[:300] = x
    want = np.concatenate([np.roll(padded[:256], -3), np.roll(padded[256:], -3)])[:300]
    np.testing.assert_array_equal(out, want)


# ---------------------------------------------------------------------------------------
# Shared memory: several arrays, alignment, 2D tiles, dynamic shared memory

SHARED = """
#[kernel]
pub fn tiles(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut BYTES: SharedArray<u8, 3> = SharedArray::UNINIT;
    static mut WIDE: SharedArray<f64, 32> = SharedArray::UNINIT;
    static mut TILE: SharedArray<[f32; 33], 32> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    let idx = thread::index_2d::<32>();
    let i = ty * 32 + tx;
    unsafe {
        TILE[ty][tx] = x[i];
        if tx == 0 {
            WIDE[ty] = x[i] as f64;
        }
        if i < 3 {
            BYTES[i] = i as u8 + 1;
        }
    }
    thread::sync_threads();
    if let Some(idx) = idx {
        if let Some(o) = out.get_mut(idx) {
            *o = unsafe { TILE[tx][ty] + WIDE[tx] as f32 + BYTES[2] as f32 };
        }
    }
}

#[kernel]
pub fn reverse(x: &[f32], mut out: DisjointSlice<f32>) {
    let buf = DynamicSharedArray::<f32>::get();
    let t = thread::threadIdx_x() as usize;
    let n = thread::blockDim_x() as usize;
    let idx = thread::index_1d();
    let i = idx.get();
    unsafe {
        *buf.add(t) = if i < x.len() { x[i] } else { 0.0 };
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { *buf.add(n - 1 - t) };
    }
}
"""


def test_shared_arrays_ptx(ptxas, tmp_path):
    ptx = build(SHARED).ptx
    assert ".shared .align 1 .b8 tiles$BYTES[3];" in ptx
    assert ".shared .align 8 .b8 tiles$WIDE[256];" in ptx
    assert ".shared .align 4 .b8 tiles$TILE[4224];" in ptx
    assert ".extern .shared .align 16 .b8 dyn_smem[];" in ptx
    entry = ptx[ptx.index(".entry reverse"):]
    assert "mov.u64" in entry and "dyn_smem" in entry
    assert "st.shared.f32" in entry and "ld.shared.f32" in entry
    for arch in ("sm_80", "sm_90"):
        info = assemble(build(SHARED, arch=arch).ptx, ptxas, tmp_path, arch)
        smem = [int(n) for n in re.findall(r"(\d+) bytes smem", info)]
        assert max(smem) >= 3 + 256 + 4224  # the three arrays of `tiles`, each aligned


def test_shared_arrays_on_the_simulator():
    comp = build(SHARED)
    x = np.random.default_rng(3).standard_normal(1024).astype(np.float32)
    out = np.full(1024, np.nan, np.float32)
    run_kernel(comp.program, "tiles", (1, 1), (32, 32), [x, out])
    tile = x.reshape(32, 32)
    want = tile.T + tile[:, 0][None, :].astype(np.float64).astype(np.float32) + np.float32(3)
    np.testing.assert_array_equal(out.reshape(32, 32), want.astype(np.float32))


def test_dynamic_shared_memory_is_sized_at_launch():
    comp = build(SHARED)
    x = np.arange(200, dtype=np.float32)
    out = np.full(200, np.nan, np.float32)
    run_kernel(comp.program, "reverse", (2,), (128,), [x, out], shared_bytes=128 * 4)
    padded = np.zeros(256, np.float32)
    padded[:200] = x
    want = np.concatenate([padded[:128][::-1], padded[128:][::-1]])[:200]
    np.testing.assert_array_equal(out, want)
    with pytest.raises(SimTrap):  # no dynamic shared memory at all: out of bounds
        run_kernel(comp.program, "reverse", (2,), (128,), [x, out], shared_bytes=0)


# ---------------------------------------------------------------------------------------
# Warp collectives

WARP = """
#[kernel]
pub fn warp_ops(xf: &[f32], xu: &[u32], xi: &[i32], xd: &[f64], xw: &[u64], k: u32,
                mut of: DisjointSlice<f32>, mut ou: DisjointSlice<u32>, mut oi: DisjointSlice<i32>,
                mut od: DisjointSlice<f64>, mut ow: DisjointSlice<u64>, mut votes: DisjointSlice<u32>,
                mut reds: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let lane = warp::lane_id();
    let f = warp::shuffle_xor_f32(xf[i], k) + warp::shuffle_f32(xf[i], k) * 1000.0;
    let u = warp::shuffle_down_u32(xu[i], k);
    let s = warp::shuffle_up_i32(xi[i], k);
    let d = warp::shuffle_xor_f64(xd[i], k);
    let w = warp::shuffle_f64(xd[i], 31 - lane) + warp::shuffle_down_u64(xw[i], k) as f64;
    let ballot = warp::ballot(xu[i] % 3 == 0);
    let any = warp::any(xi[i] == 7) as u32;
    let all = warp::all(xd[i] > -100.0) as u32;
    let mask = warp::active_mask();
    let total = warp::redux_sync_add(u32::MAX, xu[i] & 0xff);
    let wid = warp::warp_id();
    let up64 = warp::shuffle_up_u64(xw[i], k);
    let r = xu[i] >> (lane % 8);
    let red = warp::redux_sync_min_u32(u32::MAX, r)
        .wrapping_add(warp::redux_sync_max_u32(u32::MAX, r).wrapping_mul(3))
        ^ warp::redux_sync_and(u32::MAX, r | 0x10) ^ warp::redux_sync_or(u32::MAX, r).wrapping_mul(5)
        ^ warp::redux_sync_xor(u32::MAX, r).wrapping_mul(7);
    if let Some(o) = of.get_mut(thread::index_1d()) { *o = f; }
    if let Some(o) = ou.get_mut(thread::index_1d()) { *o = u; }
    if let Some(o) = oi.get_mut(thread::index_1d()) { *o = s; }
    if let Some(o) = od.get_mut(thread::index_1d()) { *o = d + w; }
    if let Some(o) = ow.get_mut(thread::index_1d()) {
        *o = up64 ^ ((wid as u64) << 40);
    }
    if let Some(o) = reds.get_mut(thread::index_1d()) {
        *o = red;
    }
    if let Some(o) = votes.get_mut(idx) {
        *o = ballot ^ (any << 1) ^ (all << 2) ^ mask ^ total.wrapping_mul(lane + 1);
    }
}
"""


def _lanes(v, fn):
    """Apply fn(warp_values) -> warp_values per warp of 32."""
    return np.concatenate([fn(w) for w in v.reshape(-1, 32)])


@pytest.mark.parametrize("k", [1, 5, 16, 33])
def test_warp_collectives_on_the_simulator(k):
    comp = build(WARP)
    rng = np.random.default_rng(k)
    n = 64
    xf = rng.standard_normal(n).astype(np.float32)
    xu = rng.integers(0, 2**32, n, dtype=np.uint32)
    xi = rng.integers(-10, 10, n).astype(np.int32)
    xd = rng.standard_normal(n)
    xw = rng.integers(0, 2**63, n, dtype=np.uint64)
    outs = [np.zeros(n, t) for t in (np.float32, np.uint32, np.int32, np.float64, np.uint64,
                                     np.uint32, np.uint32)]
    run_kernel(comp.program, "warp_ops", (1,), (n,), [xf, xu, xi, xd, xw, np.uint32(k), *outs])
    of, ou, oi, od, ow, votes, reds = outs
    lane = np.arange(32)
    b = k & 31  # shfl.sync reads the low 5 bits of the lane operand
    down = np.where(lane + b <= 31, lane + b, lane)
    up = np.where(lane - b >= 0, lane - b, lane)
    np.testing.assert_array_equal(  # a + b * 1000.0 is contracted into one fma
        of, _lanes(xf, lambda w: fma32(w[np.full(32, b)], np.float32(1000), w[lane ^ b])))
    np.testing.assert_array_equal(ou, _lanes(xu, lambda w: w[down]))
    np.testing.assert_array_equal(oi, _lanes(xi, lambda w: w[up]))
    want_d = _lanes(xd, lambda w: w[lane ^ b] + w[31 - lane])
    want_d += _lanes(xw, lambda w: w[down]).astype(np.float64)
    np.testing.assert_array_equal(od, want_d)
    np.testing.assert_array_equal(ow, _lanes(xw, lambda w: w[up]) ^ (np.repeat([0, 1], 32)
                                                                     .astype(np.uint64) << 40))

    def vote(ws):
        u, i, d = ws
        ballot = sum(1 << j for j in range(32) if u[j] % 3 == 0)
        extra = (int((i == 7).any()) << 1) ^ (int((d > -100).all()) << 2) ^ 0xFFFF_FFFF
        total = int((u & 0xFF).sum())
        return [(ballot ^ extra ^ (total * (j + 1))) & 0xFFFF_FFFF for j in range(32)]
    want = sum((vote((xu[w:w + 32], xi[w:w + 32], xd[w:w + 32])) for w in (0, 32)), [])
    assert votes.tolist() == want

    def red(u):
        r = [int(v) >> (j % 8) for j, v in enumerate(u)]
        m32 = 0xFFFF_FFFF
        a = 0xFFFF_FFFF
        o = x = 0
        for v in r:
            a &= v | 0x10
            o |= v
            x ^= v
        value = ((min(r) + max(r) * 3) & m32) ^ a ^ ((o * 5) & m32) ^ ((x * 7) & m32)
        return [value] * 32
    assert reds.tolist() == red(xu[:32]) + red(xu[32:])


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_warp_ptx(arch, ptxas, tmp_path):
    ptx = build(WARP, arch=arch).ptx
    for needle in ["shfl.sync.bfly.b32", "shfl.sync.idx.b32", "shfl.sync.down.b32",
                   "shfl.sync.up.b32", "vote.sync.ballot.b32", "vote.sync.any.pred",
                   "vote.sync.all.pred", "activemask.b32", "redux.sync.add.u32", "%laneid",
                   "redux.sync.min.u32", "redux.sync.max.u32", "redux.sync.and.b32",
                   "redux.sync.or.b32", "redux.sync.xor.b32"]:
        assert needle in ptx, needle
    assert re.search(r"shfl\.sync\.up\.b32 \t%r\d+, %r\d+, %r\d+, 0, -1;", ptx)
    assert len(re.findall(r"mov\.b64 \t\{%r\d+, %r\d+\}, %(rd|fd)\d+;", ptx)) >= 4  # 64-bit halves
    assemble(ptx, ptxas, tmp_path, arch)


# ---------------------------------------------------------------------------------------
# gpu_printf!, gpu_assert!, debug::trap

PRINTF = """
#[kernel]
pub fn hello(x: &[f32], n: u64) {
    let t = thread::threadIdx_x();
    let small = t as i8 - 3;
    if t < 2 {
        gpu_printf!("t={} x={:.2} n={} ok={} s={} h={:x} 100%\\n", t, x[t as usize], n, t == 0, small, small);
    }
    if t == 5 {
        gpu_printf!("{{done}}\\n");
    }
}
"""


def test_printf_mir_and_strings():
    comp = build(PRINTF, stop="mir")
    assert comp.program.strings == ["t=%u x=%.2f n=%llu ok=%s s=%d h=%x 100%%\n", "{done}\n"]
    # gpu_printf! is a `vprintf` intrinsic: it has vprintf's i32 result, as in cuda-oxide
    calls = [s.rvalue for s in statements(comp.program, M.Assign)
             if isinstance(s.rvalue, M.Intrinsic) and s.rvalue.name == "vprintf"]
    assert [c.args[0].value for c in calls] == [0, 1]
    assert 'string 0: "t=%u x=%.2f' in pretty_program(comp.program)
    verify_program(comp.program)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_printf_ptx(arch, ptxas, tmp_path):
    ptx = build(PRINTF, arch=arch).ptx
    assert ".extern .func (.param .b32 func_retval0) vprintf" in ptx
    assert re.search(r"\.global \.align 1 \.b8 \$str_0\[\d+\] = \{116, 61, 37, 117,", ptx)
    assert "call.uni (retval0), vprintf, (param0, param1);" in ptx
    assert "cvt.f64.f32" in ptx and "st.local.f64" in ptx and "cvta.local.u64" in ptx
    assert "selp.b64" in ptx  # the bool picks "true" or "false"
    assemble(ptx, ptxas, tmp_path, arch)


def test_printf_on_the_simulator(capsys):
    comp = build(PRINTF)
    x = np.array([1.25, -2.5, 3.0], np.float32)
    run_kernel(comp.program, "hello", (1,), (8,), [x, np.uint64(2**40)])
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"t=0 x=1.25 n={2**40} ok=true s=-3 h=fd 100%",
        f"t=1 x=-2.50 n={2**40} ok=false s=-2 h=fe 100%",
        "{done}",
    ]


def test_format_c_matches_c_printf_conversions():
    assert format_c("%u|%d|%lld|%llu|%x|%llX|%g|%.3f|%e|%s|%5d|%-4u|%08x|%%",
                    [7, -7, -(2**40), 2**64 - 1, 255, 2**40, 0.1, 2.0, 1e-5, True, 42, 3, 255]) \
        == "7|-7|-1099511627776|18446744073709551615|ff|10000000000|0.1|2.000|1.000000e-05|" \
           "true|   42|3   |000000ff|%"


def test_trap_and_assert_on_the_simulator():
    src = """
#[kernel]
pub fn k(x: &[u32]) {
    let t = thread::threadIdx_x();
    gpu_assert!(x[t as usize] < 10);
    if t == 3 {
        debug::trap();
    }
}
"""
    comp = build(src)
    assert "trap;" in comp.ptx
    with pytest.raises(SimTrap, match="assertion failed"):
        run_kernel(comp.program, "k", (1,), (4,), [np.array([1, 2, 30, 4], np.uint32)])
    with pytest.raises(SimTrap, match="unreachable"):
        run_kernel(comp.program, "k", (1,), (4,), [np.array([1, 2, 3, 4], np.uint32)])
    run_kernel(comp.program, "k", (1,), (3,), [np.array([1, 2, 3], np.uint32)])


# ---------------------------------------------------------------------------------------
# The same kernels on the GPU, against the simulator


@pytest.mark.gpu
def test_atomics_on_gpu_match_the_simulator():
    from oxidec.api import compile_source
    module = compile_source(ATOMICS, "atomics.rs")
    results = {}
    for device in ("sim", "gpu"):
        bufs = [np.array([100, 0, 0], np.uint32), np.array([0, 1000], np.int32),
                np.zeros(2, np.uint64), np.array([0.0, 1.0], np.float32), np.zeros(1),
                np.zeros(64, np.uint32)]
        module.atomics[(1,), (64,)](*bufs, device=device)
        results[device] = bufs
    sim, gpu = results["sim"], results["gpu"]
    for k in (0, 1, 3, 4):
        np.testing.assert_array_equal(gpu[k], sim[k])
    assert gpu[2][0] == sim[2][0] and gpu[2][1] < 64  # swap: some lane's value lands last
    assert gpu[5][0] == sim[5][0] and gpu[5][3] == sim[5][3]
    # compare_exchange: one lane w wins and stores w + 1; lane 1 got Ok(0) if it was w,
    # else Err(w + 1) (+ 100 in the kernel)
    won, cell = int(gpu[5][1]), int(gpu[5][2])
    assert (won == 0 and cell == 2) or (won == 100 + cell and 1 <= cell <= 64 and cell != 2)
    # f1: every thread races load-double-store on -1.5, so it ends at -1.5 * 2^k for some
    # k >= 1 that depends on the interleaving: out[4] = 15 * 2^k.
    k4 = int(gpu[5][4]) // 15
    assert int(gpu[5][4]) % 15 == 0 and k4 >= 2 and k4 & (k4 - 1) == 0
    # Tickets: every thread got a distinct value of counts[0] (100..163); which thread got
    # which depends on the hardware's order, so threads 5.. hold 59 distinct tickets.
    tickets = gpu[5][5:].tolist()
    assert len(set(tickets)) == 59 and all(100 <= v < 164 for v in tickets)


@pytest.mark.gpu
@pytest.mark.parametrize("k", [1, 16])
def test_warp_collectives_on_gpu_match_the_simulator(k):
    from oxidec.api import compile_source
    module = compile_source(WARP, "warp.rs")
    rng = np.random.default_rng(k)
    n = 64
    ins = [rng.standard_normal(n).astype(np.float32), rng.integers(0, 2**32, n, dtype=np.uint32),
           rng.integers(-10, 10, n).astype(np.int32), rng.standard_normal(n),
           rng.integers(0, 2**63, n, dtype=np.uint64), np.uint32(k)]
    results = {}
    for device in ("sim", "gpu"):
        outs = [np.zeros(n, t) for t in (np.float32, np.uint32, np.int32, np.float64,
                                         np.uint64, np.uint32, np.uint32)]
        module.warp_ops[(1,), (n,)](*ins, *outs, device=device)
        results[device] = outs
    for got, want in zip(results["gpu"], results["sim"]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.gpu
def test_dynamic_shared_memory_on_gpu():
    from oxidec.api import compile_source
    module = compile_source(SHARED, "shared.rs")
    x = np.arange(200, dtype=np.float32)
    out = np.full(200, np.nan, np.float32)
    module.reverse[(2,), (128,), 128 * 4](x, out, device="gpu")
    padded = np.zeros(256, np.float32)
    padded[:200] = x
    np.testing.assert_array_equal(out, np.concatenate([padded[:128][::-1],
                                                       padded[128:][::-1]])[:200])
    tile_in = np.random.default_rng(1).standard_normal(1024).astype(np.float32)
    sim_out, gpu_out = (np.full(1024, np.nan, np.float32) for _ in range(2))
    module.tiles[(1, 1), (32, 32)](tile_in, sim_out, device="sim")
    module.tiles[(1, 1), (32, 32)](tile_in, gpu_out, device="gpu")
    np.testing.assert_array_equal(gpu_out, sim_out)


def test_passes_on_hand_built_atomics():
    """const_fold forwards into an atomic's operands, dead_code and simplify_locals keep the
    atomic and its (unread) destination, copy_prop forwards its result."""
    ptr = T.PtrTy(T.U32, True)
    locals_ = [M.LocalDecl(ty, name, True, DUMMY_SPAN) for ty, name in [
        (T.UNIT, None), (ptr, "p"), (T.U32, None), (T.U32, None), (T.U32, None), (T.U32, None),
        (T.U32, None)]]
    body = M.Body("k", "kernel", 1, locals_, [M.BasicBlock([
        M.Assign(M.Place(2), M.Use(M.Constant(1, T.U32)), DUMMY_SPAN),
        M.AtomicOp(M.Place(3), "add", M.Copy(M.Place(1)), (M.Copy(M.Place(2)),), "relaxed",
                   "gpu", DUMMY_SPAN),
        M.Assign(M.Place(6), M.Use(M.Constant(9, T.U32)), DUMMY_SPAN),  # dead
        M.AtomicOp(M.Place(4), "exch", M.Copy(M.Place(1)), (M.Constant(2, T.U32),), "relaxed",
                   "gpu", DUMMY_SPAN),
        M.Assign(M.Place(5), M.Use(M.Copy(M.Place(4))), DUMMY_SPAN),
        M.AtomicOp(None, "store", M.Copy(M.Place(1)), (M.Copy(M.Place(5)),), "release", "gpu",
                   DUMMY_SPAN),
    ], M.Return(DUMMY_SPAN))], DUMMY_SPAN)
    verify_body(body)
    optimize(body, 2, verify=True)
    text = [pretty_statement(s) for s in body.blocks[0].statements]
    assert text == [
        "_2 = atomic add(copy _1, const 1_u32) [relaxed, gpu];",
        "_3 = atomic exch(copy _1, const 2_u32) [relaxed, gpu];",
        "atomic store(copy _1, copy _3) [release, gpu];",
    ]
    p = np.array([10], np.uint32)
    run_kernel(M.Program([body]), "k", (1,), (4,), [p])
    assert p[0] == 2  # each lane: +1, swap in 2, store what it swapped out; the last stores 2
