"""The one-way proxy fences between the generic and the async proxy (sm_90, PTX ISA 8.6):
`fence_proxy_async_generic_release_shared_cta_cluster` and
`fence_proxy_async_generic_acquire_shared_cluster_cluster`. They order memory accesses only,
so the simulator (one proxy) runs them as no-ops: here a kernel around them gives NumPy's
answer on the simulator and the GPU, its PTX names them with `.version 8.6`, ptxas takes it
for sm_90, and sm_80 is OX0013."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::barrier::{fence_proxy_async_generic_acquire_shared_cluster_cluster,
                           fence_proxy_async_generic_release_shared_cta_cluster};
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

#[kernel]
pub fn reverse(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u32, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let b = thread::blockIdx_x() as usize;
    unsafe {
        S[t] = x[b * 64 + t].wrapping_mul(3);
        fence_proxy_async_generic_release_shared_cta_cluster();
        thread::sync_threads();
        fence_proxy_async_generic_acquire_shared_cluster_cluster();
        if let Some(o) = out.get_mut(thread::index_1d()) {
            *o = S[63 - t];
        }
    }
}
"""


def run(device: str, rng):
    m = compile_source(SRC, "fences.rs", arch="sm_90")
    x = rng.integers(0, 2**32, 4 * 64, dtype=np.uint32)
    out = rng.integers(0, 2**32, x.size, dtype=np.uint32)
    m.reverse[(4,), (64,)](x, out, device=device)
    return out, (x * np.uint32(3)).reshape(4, 64)[:, ::-1].reshape(-1)


def test_proxy_fences_on_the_simulator(rng):
    np.testing.assert_array_equal(*run("sim", rng))


def test_proxy_fences_ptx(assemble):
    ptx = compile_source(SRC, "fences.rs", arch="sm_90").ptx
    assert ".version 8.6" in ptx
    assert "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;" in ptx
    assert "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;" in ptx
    assemble(ptx, "sm_90")
    with pytest.raises(CompileError) as err:
        driver.compile_source(SRC, "fences.rs", driver.Options(arch="sm_80"))
    assert "error[OX0013]" in render_all(err.value.diagnostics)


@pytest.mark.gpu
def test_proxy_fences_on_gpu(rng):
    np.testing.assert_array_equal(*run("gpu", rng))
