"""`cuda_device::view` (issue 11): proof-carrying views of a `DisjointSlice`, made with one
check: `element_thread32` (an element), `tile_thread32` (a whole `LinearTiles<N>` tile, else
None), `thread_run32` (a run clipped at the end), `grid_stride_runs32` / `next_run` (a
thread's runs a grid apart), `tile_2d32` (a `RowMajorTiles<R, C, S>` tile), and the views'
`read`, `write`, `get`, `get_mut`, `at_const`, `at`, `len`, `is_clipped`, `rows`, `cols`.
On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source
from results_check import diagnostics

SRC = """
use cuda_device::{DisjointSlice, LinearTiles, RowMajorTiles, kernel, launch_contract, thread};

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn elements(mut v: DisjointSlice<u32>) {
    let i = thread::index_1d_u32(ctx);
    if let Some(mut cell) = v.element_thread32(i) {
        let x = cell.read();
        cell.write(x.wrapping_mul(5) ^ 0x55);
        *cell.get_mut() += *cell.get() & 7;
    }
}

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn tiles(mut v: DisjointSlice<i32, LinearTiles<3>>) {
    let i = thread::index_1d_u32(ctx);
    if let Some(mut t) = v.tile_thread32(i) {
        let a = t.at_const::<0>().read();
        let b = t.at_const::<1>().read();
        let c = t.at_const::<2>().read();
        t.at_const::<0>().write(c - a);
        t.at_const::<1>().write(b * 2 + t.len() as i32);
        t.at_const::<2>().write(a + b + c);
    }
}

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn runs(mut v: DisjointSlice<f32, LinearTiles<5>>, mut marks: DisjointSlice<u32>) {
    let i = thread::index_1d_u32(ctx);
    let mark = match v.thread_run32(i) {
        None => 99,
        Some(mut run) => {
            for k in 0..run.len() + 1 {
                if let Some(mut slot) = run.at(k) {
                    let x = slot.read();
                    slot.write(x * 2.0 + k as f32);
                }
            }
            if run.is_clipped() { run.len() } else { 0 }
        }
    };
    if let Some(m) = marks.get_mut(thread::index_1d()) {
        *m = mark;
    }
}

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn strided(mut v: DisjointSlice<u32, LinearTiles<4>>) {
    let i = thread::index_1d_u32(ctx);
    let mut runs = v.grid_stride_runs32(i);
    let mut n = (runs.period() != 256) as u32 * 50;  // 64 threads * runs of 4
    while let Some(mut run) = runs.next_run() {
        n += 1;
        for k in 0..run.len() {
            if let Some(mut slot) = run.at(k) {
                let x = slot.read();
                slot.write(x + n * 1000 + i.get());
            }
        }
    }
}

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn tiles2d(mut v: DisjointSlice<f32, RowMajorTiles<2, 3, 20>>) {
    let c = thread::coord_2d_u32(ctx);
    if let Some(mut t) = v.tile_2d32(c) {
        let a = t.at_const::<0, 0>().read();
        let b = t.at_const::<1, 2>().read();
        t.at_const::<0, 0>().write(b);
        t.at_const::<1, 2>().write(a);
        let m = t.at_const::<1, 1>().read();
        t.at_const::<1, 1>().write(m + (t.rows() * 10 + t.cols()) as f32);
    }
}
"""


def module():
    return compile_source(SRC, "views.rs")


def run(device, rng):
    m = module()
    out = {}
    # element_thread32: threads past the end get None
    n = int(rng.integers(200, 300))
    v = rng.integers(0, 2**32, n, dtype=np.uint32)
    got = v.copy()
    m.elements[((n + 63) // 64,), (64,)](got, device=device)
    w = (v * np.uint32(5)) ^ np.uint32(0x55)
    out["elements"] = (got, w + (w & np.uint32(7)))
    # tile_thread32: only whole tiles of 3 (the last partial one stays as it is)
    n = int(rng.integers(100, 200)) * 3 + int(rng.integers(1, 3))
    v = rng.integers(-1000, 1000, n).astype(np.int32)
    got = v.copy()
    m.tiles[((n // 3 + 64) // 64,), (64,)](got, device=device)
    want = v.copy()
    for t in range(n // 3):
        a, b, c = v[3 * t:3 * t + 3]
        want[3 * t:3 * t + 3] = [c - a, b * 2 + 3, a + b + c]
    out["tiles"] = (got, want)
    # thread_run32: runs of 5, the last one clipped
    n = int(rng.integers(100, 200)) * 5 + int(rng.integers(1, 5))
    v = rng.standard_normal(n).astype(np.float32)
    threads = (n // 5 + 1 + 63) // 64 * 64
    got, marks = v.copy(), np.full(threads, 0xDEAD_BEEF, np.uint32)
    m.runs[(threads // 64,), (64,)](got, marks, device=device)
    k = np.arange(n) % 5
    want_marks = np.where(np.arange(threads) < n // 5, 0, 99).astype(np.uint32)
    want_marks[n // 5] = n % 5
    out["runs"] = (got, (v * np.float32(2) + k.astype(np.float32)).astype(np.float32))
    out["marks"] = (marks, want_marks)
    # grid_stride_runs32: 2 blocks of 32 threads over runs of 4
    n = int(rng.integers(600, 900))
    v = rng.integers(0, 1000, n, dtype=np.uint32)
    got = v.copy()
    m.strided[(2,), (32,)](got, device=device)
    run_idx = np.arange(n) // 4
    out["strided"] = (got, (v + (run_idx // 64 + 1) * 1000 + run_idx % 64).astype(np.uint32))
    # tile_2d32: 2 x 3 tiles of a matrix of 20 columns (tile columns 0..5 fit, 6 does not)
    rows = int(rng.integers(10, 20)) * 2
    v = rng.standard_normal(rows * 20).astype(np.float32)
    got = v.copy()
    m.tiles2d[(1, rows // 2 // 4 + 1), (8, 4)](got, device=device)
    want = v.reshape(rows, 20).copy()
    for tr in range(rows // 2):
        for tc in range(6):
            r0, c0 = 2 * tr, 3 * tc
            a, b = want[r0, c0], want[r0 + 1, c0 + 2]
            want[r0, c0], want[r0 + 1, c0 + 2] = b, a
            want[r0 + 1, c0 + 1] += np.float32(23)
    out["tiles2d"] = (got, want.reshape(-1))
    return out


def test_views_on_the_simulator(rng):
    for name, (got, want) in run("sim", rng).items():
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_views_assemble(arch, assemble):
    assemble(compile_source(SRC, "views.rs", arch=arch).ptx, arch)


def test_view_errors():
    bad = SRC.replace("t.at_const::<2>().read()", "t.at_const::<3>().read()")
    assert "error[E0080]: evaluation of constant value failed: index 3 is out of bounds of " \
        "a view of 3" in diagnostics(bad)
    bad = SRC.replace("v.element_thread32(i)", "v.tile_thread32(i)", 1)
    assert "error[E0599]: no method named `tile_thread32` found for `DisjointSlice<u32>`" \
        in diagnostics(bad)
    bad = SRC.replace("if let Some(mut t) = v.tile_thread32(i) {",
                      "if let Some(t) = v.get_mut(thread::index_1d()) {", 1)
    assert "error[E0599]: no method named `get_mut` found for `DisjointSlice<i32, " \
        "LinearTiles<3>>`" in diagnostics(bad)


@pytest.mark.gpu
def test_views_on_gpu(rng):
    for name, (got, want) in run("gpu", rng).items():
        np.testing.assert_array_equal(got, want, err_msg=name)
