"""`ThreadIndex::is_valid()` (issue 11): true for `index_1d()` in a 1-D launch, false in a
2-D one (where the witness is refused by every `get_mut`). On the simulator and the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn valid(x: &[u32], mut out: DisjointSlice<u32>, mut flags: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let ok = i.is_valid() as u32;
    let t = (thread::threadIdx_y() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    unsafe { *flags.get_unchecked_mut(t) = ok; }
    if let Some(o) = out.get_mut(i) {
        *o = x[t] + 1;
    }
}
"""


def run(device, rng, grid, block):
    n = block[0] * (block[1] if len(block) > 1 else 1)
    x = rng.integers(0, 1000, n, dtype=np.uint32)
    out = np.full(n, 7, np.uint32)
    flags = np.full(n, 9, np.uint32)
    compile_source(SRC, "v.rs").valid[grid, block](x, out, flags, device=device)
    return x, out, flags


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_is_valid_in_1d_and_2d_launches(device, rng):
    x, out, flags = run(device, rng, (1,), (64,))
    np.testing.assert_array_equal(flags, 1)
    np.testing.assert_array_equal(out, x + 1)
    x, out, flags = run(device, rng, (1, 1), (8, 8))
    np.testing.assert_array_equal(flags, 0)
    np.testing.assert_array_equal(out, 7)  # every get_mut refused the witness
