"""The cooperative-groups cluster handle (issue 11, sm_90): `this_cluster()` with `sync`,
`thread_rank`, `size`, `num_blocks`, `block_rank`, in a `#[cluster_launch]` kernel that
exchanges values through distributed shared memory. The simulator does not model clusters
(OX0030, checked here); through ptxas for sm_90, and on the GPU against NumPy."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all
from oxidec.sim.gpu_only import SimGpuOnly

SRC = """
use cuda_device::cooperative_groups::{this_cluster, ThreadGroup};
use cuda_device::cluster::map_shared_rank;
use cuda_device::{DisjointSlice, SharedArray, cluster_launch, kernel, thread};

#[cluster_launch(4, 1, 1)]
#[kernel]
pub fn ring(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut SLOT: SharedArray<u32, 128> = SharedArray::UNINIT;
    let c = this_cluster();
    let t = thread::threadIdx_x() as usize;
    let i = thread::index_1d();
    unsafe { SLOT[t] = x[i.get()]; }
    c.sync();
    let next = (c.block_rank() + 1) % c.num_blocks();
    let peer = unsafe { *map_shared_rank(&raw const SLOT as *const u32, next).add(t) };
    c.sync();
    let r = peer ^ (c.thread_rank() << 8) ^ (c.size() << 20);
    if let Some(o) = out.get_mut(i) {
        *o = r;
    }
}
"""

BLOCK, CLUSTER = 128, 4


def build(arch="sm_90"):
    try:
        return driver.compile_source(SRC, "cl.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def test_cluster_handle_assembles(ptxas, tmp_path):
    ptx = build().ptx
    for needle in ("%cluster_ctarank", "%cluster_nctarank", "barrier.cluster.arrive.aligned"):
        assert needle in ptx, needle
    path = tmp_path / "c.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "c.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_cluster_handle_needs_sm_90():
    with pytest.raises(AssertionError, match="OX0013"):
        build("sm_80")


def test_cluster_handle_is_gpu_only_on_the_simulator():
    m = compile_source(SRC, "cl.rs", arch="sm_90")
    x = np.zeros(BLOCK * CLUSTER, np.uint32)
    with pytest.raises(SimGpuOnly):
        m.ring[(CLUSTER,), (BLOCK,)](x, np.zeros_like(x), device="sim")


@pytest.mark.gpu
def test_cluster_handle_on_gpu(rng):
    clusters = 3
    n = clusters * CLUSTER * BLOCK
    x = rng.integers(0, 2**24, n, dtype=np.uint32)
    out = np.full(n, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "cl.rs", arch="sm_90").ring[(clusters * CLUSTER,), (BLOCK,)](
        x, out, device="gpu")
    i = np.arange(n)
    block = i // BLOCK
    rank = block % CLUSTER
    peer_block = block - rank + (rank + 1) % CLUSTER
    want = x[peer_block * BLOCK + i % BLOCK] ^ ((rank * BLOCK + i % BLOCK) << 8).astype(
        np.uint32) ^ np.uint32((CLUSTER * BLOCK) << 20)
    np.testing.assert_array_equal(out, want.astype(np.uint32))
