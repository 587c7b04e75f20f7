"""`cuda_device::vector` (issue 11): the over-aligned lane groups (`F32x4`, `U16x8`, ..:
`new`, `splat`, `to_array`, `as_slice`, `as_mut_slice`, `.0[k]`) and the views of a slice
as them (`as_vectors::<V>`, `as_vectors_mut::<V>`, `is_viewable::<V>`: Some / true only for
a slice that starts on the vector's alignment and whose length is a multiple of its lanes).
On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all
from results_check import check

SRC = """
use cuda_device::vector::{as_vectors, as_vectors_mut, is_viewable, F32x4, U16x8, U32x2};
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn quads(x: &[f32], off: u32, n: u32, mut out: DisjointSlice<f32>,
             mut flags: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let s = &x[off as usize..(off + n) as usize];
    let mut acc = -1.0f32;
    if let Some(v) = as_vectors::<F32x4>(s) {
        if i < v.len() {
            let q = v[i];
            let a = q.to_array();
            acc = a[0] + 2.0 * a[1] + 3.0 * q.0[2] + 4.0 * q.as_slice()[3] + v.len() as f32;
        }
    }
    let mut loc = F32x4::splat(1.5);
    loc.as_mut_slice()[2] = 7.0;
    let k = F32x4::new([1.0, 2.0, 3.0, 4.0]);
    let w = U16x8::splat(3);
    let mut f = is_viewable::<F32x4>(s) as u32 | (is_viewable::<U32x2>(&[1u32, 2, 3]) as u32) << 1;
    f |= (w.0[7] as u32) << 4 | ((loc.0[2] == 7.0 && loc.0[1] == 1.5) as u32) << 8;
    f |= ((k.0[3] == 4.0) as u32) << 9;
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
    if let Some(g) = flags.get_mut(thread::index_1d()) {
        *g = f;
    }
}

#[kernel]
pub fn halve(mut data: DisjointSlice<f32>) {
    let t = thread::index_1d().get();
    unsafe {
        let all = core::slice::from_raw_parts_mut(data.as_mut_ptr(), data.len());
        if let Some(v) = as_vectors_mut::<F32x4>(all) {
            if t < v.len() {
                let q = v[t];
                v[t] = F32x4::new([q.0[3], q.0[2] * 0.5, q.0[1], q.0[0] + 1.0]);
            }
        }
    }
}
"""


def module():
    return compile_source(SRC, "vectors.rs")


def run(device, rng):
    m, out = module(), {}
    x = rng.uniform(-1, 1, 64).astype(np.float32)
    for off, n in ((0, 32), (4, 24), (1, 12), (8, 10)):  # aligned or not, whole or not
        threads = 32
        got = np.full(threads, np.nan, np.float32)
        flags = rng.integers(0, 2**32, threads, dtype=np.uint32)
        m.quads[(1,), (threads,)](x, off, n, got, flags, device=device)
        viewable = off % 4 == 0 and n % 4 == 0
        want = np.full(threads, -1.0, np.float64)
        if viewable:
            q = x[off:off + n].astype(np.float64).reshape(-1, 4)
            want[:len(q)] = q @ np.array([1.0, 2.0, 3.0, 4.0]) + len(q)
        out[f"values {off} {n}"] = (got, want.astype(np.float32), 1e-6)
        want_flags = np.full(threads, int(viewable) | 3 << 4 | 1 << 8 | 1 << 9, np.uint32)
        out[f"flags {off} {n}"] = (flags, want_flags, 0)
    for n in (64, 62):
        d = rng.uniform(-1, 1, n).astype(np.float32)
        got = d.copy()
        m.halve[(1,), (32,)](got, device=device)
        want = d.copy()
        if n % 4 == 0:
            q = d.reshape(-1, 4)
            want = np.stack([q[:, 3], q[:, 2] * np.float32(0.5), q[:, 1],
                             q[:, 0] + np.float32(1)], axis=1).reshape(-1)
        out[f"halve {n}"] = (got, want, 0)
    return out


def test_vectors_on_the_simulator(rng):
    check(run("sim", rng))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_vectors_assemble(arch, assemble):
    assemble(compile_source(SRC, "vectors.rs", arch=arch).ptx, arch)


def test_vector_view_needs_a_vector_type():
    bad = SRC.replace("as_vectors::<F32x4>(s)", "as_vectors::<f32>(s)")
    with pytest.raises(CompileError) as err:
        driver.compile_source(bad, "v.rs", driver.Options())
    assert "error[E0277]: `as_vectors` needs a vector type" in render_all(err.value.diagnostics)


@pytest.mark.gpu
def test_vectors_on_gpu(rng):
    check(run("gpu", rng))
