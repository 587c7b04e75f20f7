"""`mbarrier.try_wait.parity` and `mbarrier.test_wait` by one thread alone, so that nothing
else can move the barrier between its checks: the PTX ISA's rule, on the simulator and on
the GPU (`gpu`).

The rule (PTX ISA, mbarrier.test_wait/try_wait; libcu++ `__try_wait_parity` models it the
same way): `phaseParity` names the current phase or the one before it; waiting on it is over
when that phase has completed, i.e. when the parity of the barrier's *current* phase differs
from it. So a fresh barrier (phase 0 in progress) answers parity 0 false and parity 1 true
(the "phase -1" every producer loop relies on); once phase 0 completes (phase 1 in
progress) parity 0 is true and parity 1 false; and so on. ptxas keeps this one comparison:
both forms become `SYNCS.PHASECHK.TRANS64` against the phase bit (parity << 31 for the
parity form, the token's high word for the token form).

Each block's single thread initialises its barrier for `n` arrivals (1..3, by block), then
for 3n steps records both parities, arrives and records whether its own token's phase has
completed (only the n-th arrival of a phase completes it)."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::barrier::*;
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn parity(counts: &[u32], mut out: DisjointSlice<u32>) {
    static mut BAR: Barrier = Barrier::UNINIT;
    let b = thread::blockIdx_x() as usize;
    let n = counts[b];
    let bar = core::ptr::addr_of_mut!(BAR);
    let mut parities = 0u32;
    let mut tokens = 0u32;
    unsafe {
        mbarrier_init(bar, n);
        let mut step = 0u32;
        while step < 3 * n {
            parities |= (mbarrier_try_wait_parity(bar, 0) as u32) << (2 * step);
            parities |= (mbarrier_try_wait_parity(bar, 1) as u32) << (2 * step + 1);
            let tok = mbarrier_arrive(bar);
            tokens |= (mbarrier_test_wait(bar, tok) as u32) << step;
            step += 1;
        }
        parities |= (mbarrier_try_wait_parity(bar, 0) as u32) << (2 * step);
        parities |= (mbarrier_try_wait_parity(bar, 1) as u32) << (2 * step + 1);
        mbarrier_inval(bar);
        *out.get_unchecked_mut(2 * b) = parities;
        *out.get_unchecked_mut(2 * b + 1) = tokens;
    }
}
"""


def expected(counts: np.ndarray) -> np.ndarray:
    out = np.zeros((counts.size, 2), np.uint32)
    for b, n in enumerate(int(c) for c in counts):
        parities = tokens = 0
        for step in range(3 * n + 1):
            current = (step // n) & 1  # the parity of the phase in progress
            for p in (0, 1):
                parities |= int(p != current) << (2 * step + p)
            if step < 3 * n:
                tokens |= int((step + 1) % n == 0) << step
        out[b] = parities, tokens
    return out.reshape(-1)


def run(device: str, rng, blocks: int = 12):
    m = compile_source(SRC, "parity.rs", arch="sm_90")
    counts = rng.integers(1, 4, blocks, dtype=np.uint32)
    counts[:3] = [1, 2, 3]
    out = rng.integers(0, 2**32, 2 * blocks, dtype=np.uint32)
    m.parity[(blocks,), (1,)](counts, out, device=device)
    return out, expected(counts)


def test_expected_table_by_hand():
    # n = 1: every arrival completes a phase; fresh: parity 1 done, parity 0 not
    got = expected(np.array([1], np.uint32))
    assert got[0] == 0b01_10_01_10 and got[1] == 0b111  # pairs: step 3, 2, 1, 0
    got = expected(np.array([2], np.uint32))  # two arrivals per phase
    assert got[0] == 0b01_10_10_01_01_10_10 and got[1] == 0b101010


def test_parity_rule_on_the_simulator(rng):
    out, want = run("sim", rng)
    np.testing.assert_array_equal(out, want)


def test_parity_kernel_assembles(ptxas, tmp_path):
    from oxidec import driver
    ptx = driver.compile_source(SRC, "parity.rs", driver.Options(arch="sm_90")).ptx
    assert "mbarrier.try_wait.parity.shared::cta.b64" in ptx
    path = tmp_path / "p.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "p.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_parity_rule_on_gpu(rng):
    out, want = run("gpu", rng)
    bad = np.flatnonzero(out != want)
    assert bad.size == 0, "block, word, got, want: " + ", ".join(
        f"({k // 2}, {k % 2}, {int(out[k]):#b}, {int(want[k]):#b})" for k in bad[:6])
