"""TMA (sm_90): `*const TmaDescriptor` parameters encoded by the host
(oxidec.runtime.tma.TensorMap, cuTensorMapEncodeTiled), bulk tensor copies global -> shared
completing on an mbarrier (1-5 dimensions, multicast) and shared -> global in bulk groups.

Here: every PTX form through ptxas for sm_90, OX0013 for sm_80, OX0030 on the simulator,
TensorMap's checks and the arguments it gives the driver (a fake one). On the H200 (`gpu`):
samples/tma_copy.rs against NumPy, and 1-, 3- and 5-dimensional boxes (a clipped one too).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.runtime.errors import LaunchError
from oxidec.runtime.tma import TensorMap
from samples.hopper_reference import (tma_copy_box, tma_copy_inputs, tma_copy_launch,
                                      tma_copy_reference)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "tma_copy.rs"

COPY_ND = """
use cuda_device::barrier::{fence_mbarrier_init_release_cluster, fence_proxy_async_shared_cta};
use cuda_device::barrier::{mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_try_wait, Barrier};
use cuda_device::tma::*;
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

// One thread copies one box of `src` (at coordinates c, innermost first) through shared
// memory to the same place in `dst`; done[0] = 1 when the load completed in time.
#[kernel]
pub fn copy_nd(src: *const TmaDescriptor, dst: *const TmaDescriptor, c: &[i32], bytes: u32,
               dims: u32, mut done: DisjointSlice<u32>) {
    static mut TILE: SharedArray<u8, 8192, 128> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    if thread::threadIdx_x() == 0 && c.len() == 5 && done.len() == 1 {
        unsafe {
            mbarrier_init(&raw mut BAR, 1);
            fence_mbarrier_init_release_cluster();
            fence_proxy_async_shared_cta();
            let t = &raw mut TILE as *mut u8;
            if dims == 1 {
                cp_async_bulk_tensor_1d_g2s(t, src, c[0], &raw mut BAR);
            } else if dims == 3 {
                cp_async_bulk_tensor_3d_g2s(t, src, c[0], c[1], c[2], &raw mut BAR);
            } else {
                cp_async_bulk_tensor_5d_g2s(t, src, c[0], c[1], c[2], c[3], c[4], &raw mut BAR);
            }
            let token = mbarrier_arrive_expect_tx(&raw const BAR, 1, bytes);
            let mut spins = 0u32;
            let mut loaded = false;
            while !loaded && spins < 200000 {
                loaded = mbarrier_try_wait(&raw const BAR, token);
                spins += 1;
            }
            if loaded {
                fence_proxy_async_shared_cta();
                let s = &raw const TILE as *const u8;
                if dims == 1 {
                    cp_async_bulk_tensor_1d_s2g(s, dst, c[0]);
                } else if dims == 3 {
                    cp_async_bulk_tensor_3d_s2g(s, dst, c[0], c[1], c[2]);
                } else {
                    cp_async_bulk_tensor_5d_s2g(s, dst, c[0], c[1], c[2], c[3], c[4]);
                }
                cp_async_bulk_commit_group();
                cp_async_bulk_wait_group(0);
            }
            *done.get_unchecked_mut(0) = loaded as u32;
        }
    }
}
"""

EVERY_FORM = """
use cuda_device::barrier::Barrier;
use cuda_device::tma::*;
use cuda_device::{SharedArray, cluster_launch, kernel, thread};

#[kernel]
#[cluster_launch(2, 1, 1)]
pub fn forms(m: *const TmaDescriptor, x: i32) {
    static mut T: SharedArray<u8, 4096, 128> = SharedArray::UNINIT;
    static mut B: Barrier = Barrier::UNINIT;
    if thread::threadIdx_x() == 0 {
        unsafe {
            let t = &raw mut T as *mut u8;
            let b = &raw mut B;
            cp_async_bulk_tensor_1d_g2s(t, m, x, b);
            cp_async_bulk_tensor_2d_g2s(t, m, x, 1, b);
            cp_async_bulk_tensor_3d_g2s(t, m, x, 1, 2, b);
            cp_async_bulk_tensor_4d_g2s(t, m, x, 1, 2, 3, b);
            cp_async_bulk_tensor_5d_g2s(t, m, x, 1, 2, 3, 4, b);
            cp_async_bulk_tensor_2d_g2s_multicast(t, m, x, 0, b, 3u16);
            let s = t as *const u8;
            cp_async_bulk_tensor_1d_s2g(s, m, x);
            cp_async_bulk_tensor_2d_s2g(s, m, x, 1);
            cp_async_bulk_tensor_3d_s2g(s, m, x, 1, 2);
            cp_async_bulk_tensor_4d_s2g(s, m, x, 1, 2, 3);
            cp_async_bulk_tensor_5d_s2g(s, m, x, 1, 2, 3, 4);
        }
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
        cp_async_bulk_wait_group(1);
    }
}
"""


def build(src: str, arch: str = "sm_90", name: str = "tma.rs") -> driver.Compilation:
    try:
        return driver.compile_source(src, name, driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


@pytest.mark.parametrize("src", [COPY_ND, EVERY_FORM, SAMPLE.read_text()],
                         ids=["copy_nd", "forms", "sample"])
def test_tma_kernels_assemble_for_sm90(src, ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(build(src).ptx)
    arch = "sm_90a" if src is EVERY_FORM else "sm_90"
    r = subprocess.run([ptxas, f"-arch={arch}", "-v", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "0 bytes stack frame" in r.stderr and "warning" not in r.stderr, r.stderr


def test_tma_ptx_forms():
    ptx = build(EVERY_FORM).ptx
    for n in (1, 2, 3, 4, 5):
        assert f"cp.async.bulk.tensor.{n}d.shared::cluster.global.tile.mbarrier::complete_tx" \
               f"::bytes \t[%rd" in ptx, n
        assert f"cp.async.bulk.tensor.{n}d.global.shared::cta.tile.bulk_group \t[%rd" in ptx, n
    assert ".multicast::cluster \t[%rd" in ptx
    assert "{%r" in ptx and ", 1, 2, 3, 4}]" not in ptx  # coordinates are registers
    for needle in ("cp.async.bulk.commit_group;", "cp.async.bulk.wait_group.read \t0;",
                   "cp.async.bulk.wait_group \t1;", "cvta.global.u64"):
        assert needle in ptx, needle
    assert ".version 8.0" in ptx and ".target sm_90a" in ptx  # multicast: sm_90a


def test_tma_needs_sm90():
    with pytest.raises(CompileError) as err:
        driver.compile_file(SAMPLE, driver.Options(arch="sm_80"))
    text = render_all(err.value.diagnostics)
    assert "error[OX0013]: `tma::cp_async_bulk_tensor_2d_g2s` needs sm_90" in text


def test_simulator_refuses_tma(rng):
    from oxidec.api import compile_file
    from oxidec.sim import SimError
    mod = compile_file(SAMPLE, arch="sm_90")
    inputs = tma_copy_inputs(rng)
    grid, block = tma_copy_launch(inputs)
    box = tma_copy_box()
    with pytest.raises(SimError, match="uses `barrier::fence_proxy_async_shared_cta`|"
                                       "uses `tma::cp_async_bulk_tensor_2d_g2s`"):
        mod.tma_copy[grid, block](TensorMap(inputs["src"], box), TensorMap(inputs["dst"], box),
                                  inputs["scale"], device="sim")
    assert np.isnan(inputs["dst"]).all()


def test_tensor_map_argument_checks(rng):
    from oxidec.api import compile_file
    mod = compile_file(SAMPLE, arch="sm_90")
    a = np.zeros((64, 64), np.float32)
    with pytest.raises(LaunchError, match="expected an oxidec.runtime.tma.TensorMap"):
        mod.tma_copy[(1, 1), (128,)](a, TensorMap(a, (32, 64)), 1.0, device="sim")
    with pytest.raises(LaunchError, match="multiple of 16 bytes"):
        TensorMap(a, (32, 3))
    with pytest.raises(LaunchError, match="box extents must be in 1..=256"):
        TensorMap(a, (0, 64))
    with pytest.raises(LaunchError, match="2 extents for a 1-D array"):
        TensorMap(np.zeros(64, np.float32), (4, 4))
    with pytest.raises(LaunchError, match="C-contiguous"):
        TensorMap(a[:, ::2], (4, 4))
    with pytest.raises(LaunchError, match="no TMA element type"):
        TensorMap(np.zeros(64, np.complex64), (8,))
    with pytest.raises(LaunchError, match="stride of 20 bytes"):
        TensorMap(np.zeros((4, 5), np.float32), (4, 4))
    with pytest.raises(LaunchError, match="at most 64 bytes, not 128"):
        TensorMap(a, (8, 32), swizzle=64)  # cuTensorMapEncodeTiled: inner box <= swizzle
    assert TensorMap(a, (8, 16), swizzle=64).box_bytes == 8 * 16 * 4
    assert TensorMap(a, (32, 64)).box_bytes == 32 * 64 * 4


class FakeDriver:
    """Records cuTensorMapEncodeTiled's arguments; gives back a recognisable descriptor."""

    class _Enum:
        def __getattr__(self, name):
            return name

    class _Word(int):
        pass

    class _Map:
        opaque = list(range(16))

    def __init__(self):
        self.calls = []
        self.CUtensorMapDataType = self.CUtensorMapInterleave = self._Enum()
        self.CUtensorMapSwizzle = self.CUtensorMapL2promotion = self._Enum()
        self.CUtensorMapFloatOOBfill = self._Enum()
        self.cuuint64_t = self.cuuint32_t = self._Word

    def cuTensorMapEncodeTiled(self, *args):
        self.calls.append(args)
        return 0, self._Map()


def test_tensor_map_encodes_innermost_first():
    drv = FakeDriver()
    a = np.zeros((3, 5, 8), np.float32)
    raw = TensorMap(a, (1, 2, 4), swizzle=64).encode(drv, 0x7000_0000)
    assert raw == np.arange(16, dtype=np.uint64).tobytes()
    (kind, rank, address, dims, strides, box, elem, inter, swz, l2, oob), = drv.calls
    assert kind == "CU_TENSOR_MAP_DATA_TYPE_FLOAT32" and rank == 3 and address == 0x7000_0000
    assert list(dims) == [8, 5, 3] and list(strides) == [32, 160] and list(box) == [4, 2, 1]
    assert list(elem) == [1, 1, 1]
    assert (inter, swz, oob) == ("CU_TENSOR_MAP_INTERLEAVE_NONE", "CU_TENSOR_MAP_SWIZZLE_64B",
                                 "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE")
    bf = TensorMap(np.zeros(64, np.uint16), (8,), bf16=True)
    bf.encode(drv, 0)
    assert drv.calls[-1][0] == "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"


def test_rank_one_tensor_map_passes_a_stride_entry():
    """Rank 1 has no strides the driver reads, but an empty list reaches it as a NULL
    pointer (CUDA_ERROR_INVALID_VALUE on the H200): one unread, legal entry goes instead."""
    drv = FakeDriver()
    TensorMap(np.zeros(1000, np.float32), (256,)).encode(drv, 0x7000_0000)
    (kind, rank, address, dims, strides, box, elem, *_rest), = drv.calls
    assert rank == 1 and list(dims) == [1000] and list(box) == [256] and list(elem) == [1]
    assert len(strides) == 1 and strides[0] % 16 == 0 and strides[0] >= 4000


# ---------------------------------------------------------------------------------------
# On the H200


@pytest.mark.gpu
def test_tma_copy_sample_on_gpu(rng):
    from oxidec.api import compile_file
    mod = compile_file(SAMPLE, arch="sm_90")
    for _ in range(2):
        inputs = tma_copy_inputs(rng)
        grid, block = tma_copy_launch(inputs)
        box = tma_copy_box()
        mod.tma_copy[grid, block](TensorMap(inputs["src"], box), TensorMap(inputs["dst"], box),
                                  inputs["scale"], device="gpu")
        np.testing.assert_array_equal(inputs["dst"], tma_copy_reference(inputs))


@pytest.mark.gpu
@pytest.mark.parametrize("shape, box", [((1000,), (256,)),
                                        ((6, 10, 40), (2, 4, 16)),
                                        ((3, 2, 4, 6, 8), (2, 1, 2, 3, 4))],
                         ids=["1d", "3d", "5d"])
def test_bulk_tensor_boxes_on_gpu(shape, box, rng):
    from oxidec.api import compile_source
    mod = compile_source(COPY_ND, "copy_nd.rs", arch="sm_90")
    src = rng.uniform(-1, 1, shape).astype(np.float32)
    dst = np.full(shape, np.nan, np.float32)
    # numpy order: slowest axis first; the 1-D box may run past the end (clipped)
    start = [int(rng.integers(0, n - b + 1)) for n, b in zip(shape, box)]
    start[-1] -= start[-1] % 4  # 16-byte aligned innermost start (device_api/tma.py)
    if len(shape) == 1:
        start = [shape[0] - box[0] // 2]
    coords = np.zeros(5, np.int32)
    coords[:len(shape)] = start[::-1]
    done = np.full(1, 0xDEAD_BEEF, np.uint32)
    nbytes = int(np.prod(box)) * 4
    mod.copy_nd[(1,), (32,)](TensorMap(src, box), TensorMap(dst, box), coords, nbytes,
                             len(shape), done, device="gpu")
    assert done[0] == 1, "the box never arrived"
    want = np.full(shape, np.nan, np.float32)
    region = tuple(slice(s, s + b) for s, b in zip(start, box))
    want[region] = src[region]
    np.testing.assert_array_equal(dst, want)
