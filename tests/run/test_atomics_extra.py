"""Atomics (issue 11): `compare_exchange` returns `Result<T, T>` (Ok when the exchange
happened, comparing bits), and `SystemAtomic*` views (scope `.sys`). Simulator against
NumPy, ptxas for sm_80 and sm_90, GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
#[kernel]
pub fn cas(slots: *mut u32, fl: *mut f32, mut got: DisjointSlice<u32>, mut fgot: DisjointSlice<f32>) {
    let t = thread::index_1d().get();
    let slot = unsafe { SystemAtomicU32::from_ptr(slots.add(t % 4)) };
    // the first thread of each slot (in any order) swaps 0 -> t + 1; the others fail
    let r = slot.compare_exchange(0, t as u32 + 1, AtomicOrdering::AcqRel, AtomicOrdering::Acquire);
    let code = match r {
        Ok(prev) => prev,
        Err(prev) => prev | 0x8000_0000,
    };
    let f = unsafe { DeviceAtomicF32::from_ptr(fl.add(t % 2)) };
    // -0.0 is not 0.0 to atom.cas: slot 1 holds -0.0, so every exchange there fails
    let fr = f.compare_exchange(0.0, 1.0 + t as f32, AtomicOrdering::Relaxed);
    let fcode = match fr {
        Ok(prev) => prev,
        Err(prev) => -100.0 - prev,
    };
    let total = unsafe { SystemAtomicU32::from_ptr(slots.add(4)) };
    total.fetch_add(1, AtomicOrdering::SeqCst);
    if let Some(o) = got.get_mut(thread::index_1d()) { *o = code; }
    if let Some(o) = fgot.get_mut(thread::index_1d()) { *o = fcode; }
}
"""


def run(device, n=64):
    module = compile_source(SRC, "cas.rs")
    slots = np.zeros(5, np.uint32)
    fl = np.array([0.0, -0.0], np.float32)
    got = np.full(n, 0xDEAD_BEEF, np.uint32)
    fgot = np.full(n, np.nan, np.float32)
    module.cas[(1,), (n,)](slots, fl, got, fgot, device=device)
    return slots, fl, got, fgot


def check(slots, fl, got, fgot, n=64):
    assert slots[4] == n
    for s in range(4):
        mine = np.arange(s, n, 4)
        winner = int(slots[s]) - 1
        assert winner in mine
        ok = got[mine] & 0x7FFF_FFFF
        assert got[winner] == 0 and (ok[mine != winner] == winner + 1).all()
        assert (got[mine[mine != winner]] >> 31 == 1).all()
    fw = int(fl[0]) - 1
    assert fw % 2 == 0 and fgot[fw] == 0.0
    others = np.arange(0, n, 2)[np.arange(0, n, 2) != fw]
    assert (fgot[others] == -100.0 - fl[0]).all()
    # -0.0 never matches the bits of 0.0: every thread of slot 1 gets Err(-0.0)
    assert np.signbit(fl[1]) and fl[1] == 0 and (fgot[1::2] == -100.0).all()


def test_compare_exchange_result_on_the_simulator():
    slots, fl, got, fgot = run("sim")
    check(slots, fl, got, fgot)
    assert (slots[:4] == np.arange(1, 5)).all()  # the simulator runs lanes in order


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_atomics_extra_ptx(arch, assemble):
    ptx = compile_source(SRC, "cas.rs", arch=arch).ptx
    assert "atom.acq_rel.sys.global.cas.b32" in ptx and "fence.sc.sys;" in ptx
    assert "atom.relaxed.gpu.global.cas.b32" in ptx
    assemble(ptx, arch)


@pytest.mark.gpu
def test_compare_exchange_result_on_gpu():
    check(*run("gpu", 256), n=256)


CELLS = """
#[kernel]
pub fn cells(ctrl: &[DeviceAtomicU32], wide: &[SystemAtomicU64], x: &[u32],
             mut prev: DisjointSlice<u32>) {
    let i = thread::index_1d().get();
    if i < x.len() {
        let k = (x[i] % ctrl.len() as u32) as usize;
        let before = ctrl[k].fetch_add(1, AtomicOrdering::Relaxed);
        let w = &wide[k % wide.len()];
        w.fetch_max(x[i] as u64 * 3, AtomicOrdering::AcqRel);
        if let Some(p) = prev.get_mut(thread::index_1d()) {
            *p = before;
        }
    }
}
"""


def run_cells(device, rng, n):
    module = compile_source(CELLS, "cells.rs")
    x = rng.integers(0, 2**31, n, dtype=np.uint32)
    ctrl = rng.integers(0, 1000, 7, dtype=np.uint32)
    wide = np.zeros(3, np.uint64)
    prev = np.full(n, 0xDEAD_BEEF, np.uint32)
    start = ctrl.copy()
    module.cells[((n + 127) // 128,), (128,)](ctrl, wide, x, prev, device=device)
    k = x % 7
    np.testing.assert_array_equal(ctrl, start + np.bincount(k, minlength=7).astype(np.uint32))
    want_wide = [max([int(v) * 3 for v, kk in zip(x, k) if kk % 3 == j] or [0])
                 for j in range(3)]
    assert wide.tolist() == want_wide
    for j in range(7):  # each cell's previous values are start, start + 1, ... in some order
        got = np.sort(prev[k == j])
        np.testing.assert_array_equal(got, start[j] + np.arange(got.size, dtype=np.uint32))


def test_atomic_cell_slices_on_the_simulator(rng):
    run_cells("sim", rng, 500)


def test_atomic_cell_slices_ptx(ptxas, tmp_path):
    ptx = compile_source(CELLS, "cells.rs").ptx
    assert "atom.relaxed.gpu.global.add.u32" in ptx and "atom.acq_rel.sys.global.max.u64" in ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_80", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_atomic_cell_slices_on_gpu(rng):
    run_cells("gpu", rng, 5000)
