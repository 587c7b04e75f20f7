"""`#[launch_contract(dynamic_shared = .., dynamic_shared_range = .., dynamic_shared_alignment
= .., min_compute_capability = ..)]` (issue 11): parsed, printed in the MIR, the alignment in
the PTX's `.extern .shared`, and the bytes checked by the host before every launch."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.diagnostics import CompileError
from oxidec.runtime.errors import LaunchError

SRC = """
#[kernel]
#[launch_contract(domain = 1, CLAUSE)]
pub unsafe fn staged(x: &[f32], mut out: DisjointSlice<f32>) {
    let tile = DynamicSharedArray::<f32>::get();
    let t = thread::threadIdx_x() as usize;
    let i = thread::index_1d();
    let k = i.get();
    if k < x.len() {
        unsafe { *tile.add(t) = x[k] * 2.0; }
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(i) {
        *o = unsafe { *tile.add(t) } + 1.0;
    }
}
"""


def build(clause, arch="sm_80"):
    return compile_source(SRC.replace("CLAUSE", clause), "staged.rs", arch=arch)


def test_dynamic_shared_exact_bytes(rng):
    m = build("dynamic_shared = 256, dynamic_shared_alignment = 128")
    assert ".extern .shared .align 128" in m.ptx
    x = rng.uniform(-1, 1, 100).astype(np.float32)
    out = np.full(100, np.nan, np.float32)
    m.staged.launch((2,), (64,), x, out, device="sim", shared_bytes=256)
    np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1))
    with pytest.raises(LaunchError, match=r"`dynamic_shared = 256` but the launch gives 128"):
        m.staged.launch((2,), (64,), x, out, device="sim", shared_bytes=128)


def test_dynamic_shared_range(rng):
    m = build("dynamic_shared_range = (256, 1024), min_compute_capability = (8, 0)")
    x = rng.uniform(-1, 1, 70).astype(np.float32)
    out = np.full(70, np.nan, np.float32)
    m.staged.launch((2,), (64,), x, out, device="sim", shared_bytes=512)
    np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1))
    with pytest.raises(LaunchError, match=r"dynamic_shared_range = \(256, 1024\)"):
        m.staged.launch((2,), (64,), x, out, device="sim", shared_bytes=2048)


@pytest.mark.parametrize("clause, message", [
    ("dynamic_shared_range = (64, 32)", "MIN <= MAX"),
    ("dynamic_shared_alignment = 48", "must be a power of two"),
    ("dynamic_shared = (1, 2)", "expected `dynamic_shared = BYTES`"),
    ("dynamic_shared = 64, dynamic_shared_range = (1, 2)", "both given"),
])
def test_bad_clauses(clause, message):
    with pytest.raises(CompileError) as err:
        build(clause)
    assert any(message in d.message for d in err.value.diagnostics), \
        [d.message for d in err.value.diagnostics]


@pytest.mark.gpu
def test_dynamic_shared_contract_on_gpu(rng):
    m = build("dynamic_shared = 256, dynamic_shared_alignment = 128")
    x = rng.uniform(-1, 1, 1000).astype(np.float32)
    out = np.full(1000, np.nan, np.float32)
    m.staged.launch((16,), (64,), x, out, device="gpu", shared_bytes=256)
    np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1))
    with pytest.raises(LaunchError):
        m.staged.launch((16,), (64,), x, out, device="gpu", shared_bytes=0)
