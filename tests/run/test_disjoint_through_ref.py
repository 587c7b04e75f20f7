"""A `DisjointSlice` handed to a helper as `&mut DisjointSlice<T>`: `get_mut`, `len` and
`get_unchecked_mut` through the reference (they were an internal error in the emitter,
`(*out)[i]` indexing the slice handle instead of its data)."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::{kernel, device, thread, DisjointSlice, ThreadIndex};

#[device]
fn put(out: &mut DisjointSlice<u32>, idx: ThreadIndex, v: u32) {
    let n = out.len() as u32;
    if let Some(o) = out.get_mut(idx) { *o = v ^ n; }
}

#[inline(never)]
fn put_far(out: &mut DisjointSlice<u32>, i: usize, v: u32) {
    if i < out.len() {
        unsafe { *out.get_unchecked_mut(i) = v; }
    }
}

#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>, mut far: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = if i < x.len() { x[i].wrapping_mul(3) } else { 0 };
    put(&mut out, idx, v);
    put_far(&mut far, i, v.wrapping_add(1));
}
"""


@pytest.mark.parametrize("opt", [0, 2])
@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_helpers_write_through_a_reference_to_the_slice(device, opt, rng) -> None:
    n = 200
    x = rng.integers(1, 2**32, n, dtype=np.uint32)
    out = np.full(n, 0xDEADBEEF, np.uint32)
    far = np.full(n, 0xDEADBEEF, np.uint32)
    mod = compile_source(SRC, "through_ref.rs", opt_level=opt)
    mod.k[(4,), (64,)](x, out, far, device=device)  # 256 threads for 200 elements
    np.testing.assert_array_equal(out, (x * np.uint32(3)) ^ np.uint32(n))
    np.testing.assert_array_equal(far, x * np.uint32(3) + np.uint32(1))
