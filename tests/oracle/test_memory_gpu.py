"""The memory-surface oracle programs (raw pointers to locals, `core::mem`, `MaybeUninit`,
slices, references through functions) on the GPU: the PTX must give, bit for bit, what the
simulator gives (and test_items_oracle.py checks the simulator against rustc). Locals whose
address is taken live in `.local` memory there, and a pointer to one passed to a function is
converted to a generic address (`cvta.local`): this is what the test exercises."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxidec import api

HERE = Path(__file__).resolve().parent / "items"
CASES = ["raw_pointers", "slices", "refs_through_fns", "core_mem", "maybe_uninit"]

KERNEL = """
#[kernel]
pub fn oracle_kernel(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = compute(x[i], i);
    }
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("name", CASES)
def test_gpu_matches_simulator(name: str, rng) -> None:
    src = "use cuda_device::{kernel, thread, DisjointSlice};\n" + \
        (HERE / f"{name}.rs").read_text() + KERNEL
    module = api.compile_source(src, f"{name}.rs", fmad=False)
    n = 1000
    xs = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    results = {}
    for device in ("sim", "gpu"):
        out = np.full(n, np.nan, np.float32)
        module.oracle_kernel[((n + 127) // 128, 1, 1), (128, 1, 1)](xs, out, device=device)
        results[device] = out.view(np.uint32)
    np.testing.assert_array_equal(results["gpu"], results["sim"])
