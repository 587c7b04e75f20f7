"""`mbarrier.try_wait.parity` and `mbarrier.test_wait` by one thread alone, so that nothing
else moves the barrier: what the PTX ISA fixes, on the simulator and on the GPU (`gpu`).

The rule (PTX ISA, mbarrier.test_wait/try_wait; libcu++ `__try_wait_parity` models it the
same way): `phaseParity` names the current phase or the one before it, and the wait is over
once that phase has completed. ptxas keeps this one comparison: both forms become
`SYNCS.PHASECHK.TRANS64` against the phase bit (parity << 31 for the parity form, the
token's high word for the token form). So:

- the parity of the phase *before* the current one (1 on a fresh barrier: the "phase -1"
  every producer loop relies on) is done: `try_wait_parity` answers true at once;
- a token's phase, tested with `test_wait` (a plain PHASECHK, sampled when it runs), is done
  exactly when an arrival since completed it;
- the *current* phase is not done yet, but `try_wait` is potentially blocking: the SASS form
  (`.TRYWAIT`) answers when the phase completes or a time limit passes, and ptxas lets the
  warp go on (even arrive on the barrier) until the predicate is read. So it may answer true
  if the thread's own later arrivals complete the phase, false otherwise; with no arrival
  after it, only false. That is what made `test_mbarrier_phases_on_gpu` see parity 1 done
  "right after phase 0" (tests/run/test_asynchrony.py): its predicate was read after the
  thread's next arrival, and the phase completed meanwhile. The simulator answers false
  (the time limit at once), one of the outcomes the hardware may give.

Each block's single thread initialises its barrier for `n` arrivals (1..3, by block), then
for 3n steps records both parities, arrives and records whether its own token's phase has
completed (only the n-th arrival of a phase completes it), and records both parities once
more at the end, with no arrival after them."""
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
        *out.get_unchecked_mut(2 * b) = parities;
        *out.get_unchecked_mut(2 * b + 1) = tokens;
    }
}
"""


def expected(counts: np.ndarray) -> np.ndarray:
    """Per block: (parity bits that must be set, parity bits that must be clear, the token
    bits exactly)."""
    out = np.zeros((counts.size, 3), np.uint32)
    for b, n in enumerate(int(c) for c in counts):
        must, must_not, tokens = 0, 0, 0
        for step in range(3 * n + 1):
            current = (step // n) & 1  # the parity of the phase in progress
            must |= 1 << (2 * step + (current ^ 1))  # the phase before: done
            if step == 3 * n:  # no arrival after the last check: the current one is not
                must_not |= 1 << (2 * step + current)
            if step < 3 * n:
                tokens |= int((step + 1) % n == 0) << step
        out[b] = must, must_not, tokens
    return out


def check(out: np.ndarray, want: np.ndarray) -> None:
    got = out.reshape(-1, 2)
    must, must_not, tokens = want[:, 0], want[:, 1], want[:, 2]
    bad = np.flatnonzero(((got[:, 0] & must) != must) | ((got[:, 0] & must_not) != 0) |
                         (got[:, 1] != tokens))
    assert bad.size == 0, "block, parities, must be set, must be clear, tokens, want: " + \
        ", ".join(f"({b}, {int(got[b, 0]):#b}, {int(must[b]):#b}, {int(must_not[b]):#b}, "
                  f"{int(got[b, 1]):#b}, {int(tokens[b]):#b})" for b in bad[:6])


def run(device: str, rng, blocks: int = 12):
    m = compile_source(SRC, "parity.rs", arch="sm_90")
    counts = rng.integers(1, 4, blocks, dtype=np.uint32)
    counts[:3] = [1, 2, 3]
    out = rng.integers(0, 2**32, 2 * blocks, dtype=np.uint32)
    m.parity[(blocks,), (1,)](counts, out, device=device)
    return out, expected(counts)


def test_expected_table_by_hand():
    # n = 1: every arrival completes a phase; pairs (parity 1, parity 0) per step, step 0 last
    must, must_not, tokens = expected(np.array([1], np.uint32))[0]
    assert must == 0b01_10_01_10 and must_not == 0b10 << 6 and tokens == 0b111
    must, must_not, tokens = expected(np.array([2], np.uint32))[0]  # two arrivals a phase
    assert must == 0b01_10_10_01_01_10_10 and must_not == 0b10 << 12 and tokens == 0b101010


def test_parity_rule_on_the_simulator(rng):
    out, want = run("sim", rng)
    check(out, want)
    # the simulator's try_wait gives up at once: the current phase is never done
    for b, (must, _, _) in enumerate(want):
        assert int(out[2 * b]) == int(must)


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
    check(*run("gpu", rng))
