"""`&cells[i]` of a `&[DeviceAtomicU64]` / `&[DeviceAtomicU32]` parameter is a
`&DeviceAtomicU64` view (as in cuda-oxide): it can be kept in a variable and passed to a
device function taking `&DeviceAtomicU64`. On the simulator against NumPy, through ptxas,
and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicU32, DeviceAtomicU64};
use cuda_device::{kernel, thread};

fn bump(cell: &DeviceAtomicU64, by: u64) -> u64 {
    cell.fetch_add(by, AtomicOrdering::Relaxed)
}

fn set_max(cell: &DeviceAtomicU32, v: u32) {
    let mut cur = cell.load(AtomicOrdering::Relaxed);
    while cur < v {
        match cell.compare_exchange(cur, v, AtomicOrdering::AcqRel, AtomicOrdering::Relaxed) {
            Ok(_) => return,
            Err(seen) => cur = seen,
        }
    }
}

#[kernel]
pub fn scatter(keys: &[u32], sums: &[DeviceAtomicU64], maxes: &[DeviceAtomicU32]) {
    let i = thread::index_1d().get();
    if i < keys.len() {
        let k = keys[i];
        let slot = (k % 7) as usize;
        let sum = &sums[slot];
        bump(sum, k as u64 + 1);
        set_max(&maxes[slot], k);
    }
}
"""


def run(device, rng):
    n = int(rng.integers(500, 900))
    keys = rng.integers(0, 1 << 30, n, dtype=np.uint32)
    sums = np.zeros(7, np.uint64)
    maxes = np.zeros(7, np.uint32)
    compile_source(SRC, "cells.rs").scatter[((n + 127) // 128,), (128,)](
        keys, sums, maxes, device=device)
    want_s = np.array([keys[keys % 7 == s].astype(np.uint64).sum() + (keys % 7 == s).sum()
                       for s in range(7)], np.uint64)
    want_m = np.array([keys[keys % 7 == s].max(initial=0) for s in range(7)], np.uint32)
    np.testing.assert_array_equal(sums, want_s)
    np.testing.assert_array_equal(maxes, want_m)


def test_atomic_cell_refs_on_the_simulator(rng):
    run("sim", rng)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_atomic_cell_refs_assemble(arch, assemble):
    ptx = compile_source(SRC, "cells.rs", arch=arch).ptx
    assert "atom.relaxed.gpu.global.add.u64" in ptx or "atom.relaxed.gpu.add.u64" in ptx
    assemble(ptx, arch)


@pytest.mark.gpu
def test_atomic_cell_refs_on_gpu(rng):
    run("gpu", rng)
