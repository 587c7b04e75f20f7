"""`ManagedBarrier<State, Kind, ID>` (issue 11): the typestate handle over a shared
mbarrier: from_static, init / init_by (one thread initialises, then the block syncs),
arrive -> BarrierToken, wait, test_wait, as_ptr, inval / inval_by, token raw/from_raw, and
E0599 for a method of another state. On the simulator against NumPy (a two-phase exchange
through shared memory ordered only by the barrier), through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::barrier::{Barrier, BarrierToken, GeneralBarrier, ManagedBarrier, TmaBarrier,
                           Uninit, Ready};
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

fn rotate(b: &ManagedBarrier<Ready, GeneralBarrier>, v: u32) -> u32 {
    let t = b.arrive();
    b.wait(t);
    v.rotate_left(3)
}

#[kernel]
pub fn phases(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut BAR: Barrier = Barrier::UNINIT;
    static mut BAR2: Barrier = Barrier::UNINIT;
    static mut BUF: SharedArray<u32, 64> = SharedArray::UNINIT;
    let tid = thread::threadIdx_x() as usize;
    let n = thread::blockDim_x();
    let a = ManagedBarrier::<Uninit, GeneralBarrier>::from_static(&raw mut BAR);
    let a = unsafe { a.init(n) };
    let c = ManagedBarrier::<Uninit, TmaBarrier, 1>::from_static(&raw mut BAR2);
    let c = unsafe { c.init_by(n, 5) };
    let i = thread::index_1d();
    let v = x[i.get()];
    unsafe { BUF[tid] = v; }
    let t = a.arrive();
    a.wait(t);                                   // phase 0 complete: every BUF[k] written
    let left = unsafe { BUF[(tid + 1) % n as usize] };
    let t2 = c.arrive();
    let raw = BarrierToken::from_raw(t2.raw());
    while !c.test_wait(raw) {}
    unsafe { BUF[tid] = left ^ 0xFF; }           // every read of phase 0 is done
    let r = rotate(&a, left);                    // phase 1 of `a`
    let right = unsafe { BUF[(tid + n as usize - 1) % n as usize] };
    let p = a.as_ptr() as u64 != 0;
    thread::sync_threads();
    if tid == 0 {
        let _dead = unsafe { a.inval() };
    }
    let _gone = unsafe { c.inval_by(5) };
    if let Some(o) = out.get_mut(i) {
        *o = r ^ (right << 7) ^ (p as u32);
    }
}
"""


def expected(x: np.ndarray, n: int) -> np.ndarray:
    out = []
    for b0 in range(0, x.size, n):
        blk = [int(v) for v in x[b0:b0 + n]]
        left = [blk[(t + 1) % n] for t in range(n)]
        buf = [v ^ 0xFF for v in left]
        for t in range(n):
            r = ((left[t] << 3) | (left[t] >> 29)) & 0xFFFFFFFF
            out.append((r ^ ((buf[(t - 1) % n] << 7) & 0xFFFFFFFF) ^ 1) & 0xFFFFFFFF)
    return np.array(out, np.uint32)


def run(device, rng, blocks=3, n=64):
    x = rng.integers(0, 2**32, blocks * n, dtype=np.uint32)
    out = np.full(x.size, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "mb.rs").phases[(blocks,), (n,)](x, out, device=device)
    return out, expected(x, n)


def test_managed_barrier_on_the_simulator(rng):
    out, want = run("sim", rng)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_managed_barrier_assembles(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "mb.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    for needle in ("mbarrier.init.shared.b64", "mbarrier.arrive.shared.b64",
                   "mbarrier.test_wait.shared.b64", "mbarrier.inval.shared.b64"):
        assert needle in ptx, needle
    assemble(ptx, arch)


def test_a_method_of_another_state_is_e0599():
    bad = SRC.replace("let a = unsafe { a.init(n) };", "let t0 = a.arrive();\n"
                      "    let a = unsafe { a.init(n) };")
    with pytest.raises(CompileError) as err:
        driver.compile_source(bad, "mb.rs", driver.Options())
    text = render_all(err.value.diagnostics)
    assert "E0599" in text and "no method named `arrive` found for " \
        "`ManagedBarrier<Uninit, GeneralBarrier, 0>`" in text
    assert "`arrive` needs a `Ready` barrier" in text


@pytest.mark.gpu
def test_managed_barrier_on_gpu(rng):
    out, want = run("gpu", rng, blocks=8, n=64)
    np.testing.assert_array_equal(out, want)
