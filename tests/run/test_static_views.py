"""`cuda_device::view`'s checked indices and static views (issue 11): `LocalIndex32<N>`
(`new` refuses k >= N, `constant::<I>()`, `get`), `StaticView32::from_slice` (exactly N
elements, else None) with `at`, `at_const`, `len`, `InBounds32::read`/`get`;
`StaticViewMut32::from_slice` of a local array; `at(row, col)` of a `RowMajorTiles` tile;
`DisjointSlice<T, RuntimeRowMajorTiles<R, C>>` (the host passes a 2-D array: its row
width) with `tile_2d32_rt` and the `RuntimeTileMut32`'s `at`, `at_const`, `rows`, `cols`,
`stride`. On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source
from results_check import check, diagnostics

SRC = """
use cuda_device::view::{LocalIndex32, StaticView32, StaticViewMut32};
use cuda_device::{DisjointSlice, RowMajorTiles, RuntimeRowMajorTiles, kernel, launch_contract,
                  thread};

#[kernel]
pub fn statics(x: &[f32], q: &[u32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let t = idx.get();
    let mut acc = -1.0f32;
    if t < q.len() && 4 * t + 4 <= x.len() {
        let lo = 4 * t;
        if let Some(v) = StaticView32::<f32, 4>::from_slice(&x[lo..lo + 4]) {
            acc = v.at_const::<3>().read() * 10.0 + v.len() as f32;
            match LocalIndex32::<4>::new(q[t]) {
                Some(i) => acc += v.at(i).read() * 100.0 + i.get() as f32 * 1000.0,
                None => acc -= 5000.0,
            }
            acc += *v.at(LocalIndex32::constant::<1>()).get();
        }
        if StaticView32::<f32, 4>::from_slice(&x[lo..lo + 3]).is_some() {
            acc = 1.0e9;
        }
        let mut buf = [x[lo], x[lo + 1], x[lo + 2], x[lo + 3]];
        if let Some(mut w) = StaticViewMut32::<f32, 4>::from_slice(&mut buf) {
            let k = LocalIndex32::<4>::new(q[t] % 4).unwrap();
            w.at(k).write(0.5);
            w.at_const::<0>().write(w.len() as f32);
        }
        acc += buf[0] * 0.25 + buf[1] + buf[2] + buf[3];
    }
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn tiles(mut v: DisjointSlice<f32, RowMajorTiles<2, 3, 12>>) {
    let c = thread::coord_2d_u32(ctx);
    if let Some(mut t) = v.tile_2d32(c) {
        let r1 = LocalIndex32::<2>::constant::<1>();
        let c2 = LocalIndex32::<3>::new(2).unwrap();
        let a = t.at(r1, c2).read();
        t.at(LocalIndex32::constant::<0>(), LocalIndex32::constant::<1>()).write(a * 3.0);
    }
}

#[kernel(launch_context = ctx)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn rt_tiles(mut v: DisjointSlice<u32, RuntimeRowMajorTiles<2, 4>>, mut seen: DisjointSlice<u32>) {
    let c = thread::coord_2d_u32(ctx);
    let w = v.row_width() + (v.as_mut_ptr() as usize % 4) as u32;
    if c.row() == 0 && c.col() == 0 && v.len() > 0 {
        unsafe { *v.get_unchecked_mut(v.len() - 1) += 1 << 24; }
    }
    let mark = match v.tile_2d32_rt(c) {
        None => 7,
        Some(mut t) => {
            let x = t.at_const::<1, 3>().read();
            t.at_const::<0, 0>().write(x + t.stride() * 100);
            let i = LocalIndex32::<2>::new(1).unwrap();
            let j = LocalIndex32::<4>::new(c.col() % 4).unwrap();
            let y = t.at(i, j).read();
            t.at(i, j).write(y ^ (t.rows() * 16 + t.cols()));
            1
        }
    };
    let k = (c.row() * thread::gridDim_x() * thread::blockDim_x() + c.col()) as usize;
    if k < seen.len() {
        unsafe { *seen.get_unchecked_mut(k) = mark + w * 0; }
    }
}
"""


def module():
    return compile_source(SRC, "static_views.rs")


def run(device, rng):
    m, out = module(), {}
    # statics: windows of 4; q may be out of range (>= 4)
    n = int(rng.integers(40, 60))
    x = rng.uniform(-1, 1, 4 * n + int(rng.integers(0, 4))).astype(np.float32)
    q = rng.integers(0, 6, n, dtype=np.uint32)
    threads = (n + 31) // 32 * 32 + 32
    got = np.full(threads, np.nan, np.float32)
    m.statics[(threads // 32,), (32,)](x, q, got, device=device)
    want = np.full(threads, -1.0, np.float64)
    for t in range(n):
        w = x[4 * t:4 * t + 4].astype(np.float64)
        acc = w[3] * 10 + 4
        acc += w[q[t]] * 100 + q[t] * 1000 if q[t] < 4 else -5000
        acc += w[1]
        buf = w.copy()
        buf[q[t] % 4] = 0.5
        buf[0] = 4.0
        want[t] = acc + buf[0] * 0.25 + buf[1] + buf[2] + buf[3]
    out["statics"] = (got, want.astype(np.float32), 1e-5)
    # RowMajorTiles<2, 3, 12>: tile columns 0..4 fit a 12-wide row
    rows = 2 * int(rng.integers(3, 8))
    v = rng.uniform(-1, 1, rows * 12).astype(np.float32)
    got = v.copy()
    m.tiles[(1, rows // 2), (6, 1)](got, device=device)
    want = v.reshape(rows, 12).copy()
    for tr in range(rows // 2):
        for tc in range(4):
            want[2 * tr, 3 * tc + 1] = want[2 * tr + 1, 3 * tc + 2] * np.float32(3)
    out["tiles"] = (got, want.reshape(-1), 0)
    # RuntimeRowMajorTiles<2, 4> over a rows x width matrix (width not a multiple of 4)
    width = int(rng.integers(9, 15))
    rows = 2 * int(rng.integers(2, 5)) + 1  # an odd row count: the last tile row is short
    v = rng.integers(0, 2**20, (rows, width), dtype=np.uint32)
    got = v.copy()
    grid_x = (width + 3) // 4 + 1
    seen = np.full(grid_x * (rows // 2 + 1), 0xDEAD_BEEF, np.uint32)
    m.rt_tiles[(1, rows // 2 + 1), (grid_x, 1)](got, seen, device=device)
    want = v.copy()
    want_seen = np.full_like(seen, 7)
    for tr in range(rows // 2 + 1):
        for tc in range(grid_x):
            r0, c0 = 2 * tr, 4 * tc
            if c0 + 4 > width or (r0 + 1) * width + c0 + 3 >= rows * width:
                continue
            want_seen[tr * grid_x + tc] = 1
            want[r0, c0] = want[r0 + 1, c0 + 3] + np.uint32(width * 100)
            want[r0 + 1, c0 + tc % 4] ^= np.uint32(2 * 16 + 4)
    want[-1, -1] += np.uint32(1 << 24)  # thread (0, 0), through get_unchecked_mut
    out["rt_tiles"] = (got, want, 0)
    out["seen"] = (seen, want_seen, 0)
    return out


def test_static_views_on_the_simulator(rng):
    check(run("sim", rng))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_static_views_assemble(arch, assemble):
    assemble(compile_source(SRC, "static_views.rs", arch=arch).ptx, arch)


def test_static_view_errors():
    bad = SRC.replace("LocalIndex32::constant::<1>()).get()", "LocalIndex32::constant::<4>()).get()")
    assert "error[E0080]: evaluation of constant value failed: index 4 is out of bounds of " \
        "a view of 4" in diagnostics(bad)
    # N left to inference: decided by `v.at(i)`; a constant needs it where it stands
    assert diagnostics(SRC.replace("LocalIndex32::<4>::new(q[t])", "LocalIndex32::new(q[t])")) \
        == ""
    bad = SRC.replace("let r1 = LocalIndex32::<2>::constant::<1>();",
                      "let r1 = LocalIndex32::constant::<1>();")
    assert "error[E0282]: type annotations needed" in diagnostics(bad)
    bad = SRC.replace("v.at(i).read()", "v.at(LocalIndex32::<3>::new(0).unwrap()).read()")
    assert "error[E0308]: mismatched types" in diagnostics(bad)


@pytest.mark.gpu
def test_static_views_on_gpu(rng):
    check(run("gpu", rng))
