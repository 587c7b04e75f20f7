"""TMA descriptors passed by value (`src: TmaDescriptor`, as a CUDA kernel takes a
`const __grid_constant__ CUtensorMap`) and the bulk tensor copies of every rank, each in a
kernel of its own so that a fault names the rank and the direction.

A by-value descriptor is `.param .align 64 .b8 NAME[128]` and stays there: the kernel hands
its generic address (`cvta.param`) to the TMA instruction, never a copy in local memory
(the TMA unit reads descriptors from param, const or global memory only). Here: the PTX
form through ptxas (no stack frame), the 128 bytes the host packs, and on the H200 (`gpu`)
loads (by value and by pointer) and stores (by value) of boxes of rank 1 to 5 against NumPy.
"""
from __future__ import annotations

import ctypes
import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.runtime.tma import TensorMap

PRELUDE = """
use cuda_device::barrier::{fence_mbarrier_init_release_cluster, fence_proxy_async_shared_cta};
use cuda_device::barrier::{mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_try_wait_parity};
use cuda_device::barrier::Barrier;
use cuda_device::tma::*;
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};
"""


def coords(n: int) -> str:
    return ", ".join(f"c[{k}]" for k in range(n))


def load_kernel(n: int, by_value: bool) -> str:
    """Thread 0 loads the box at c into shared memory; every thread then copies the box's
    `bytes / 4` floats to `out` (in the box's row-major order)."""
    name = f"load_{n}d_{'value' if by_value else 'ptr'}"
    param, arg = ("src: TmaDescriptor", "&src") if by_value else \
        ("src: *const TmaDescriptor", "src")
    return f"""
#[kernel]
pub fn {name}({param}, c: &[i32], bytes: u32, mut out: DisjointSlice<f32>) {{
    static mut TILE: SharedArray<f32, 2048, 128> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    let t = thread::threadIdx_x();
    unsafe {{
        if t == 0 && c.len() == 5 {{
            mbarrier_init(&raw mut BAR, 1);
            fence_mbarrier_init_release_cluster();
            fence_proxy_async_shared_cta();
            cp_async_bulk_tensor_{n}d_g2s(&raw mut TILE as *mut u8, {arg}, {coords(n)},
                                         &raw mut BAR);
            let _ = mbarrier_arrive_expect_tx(&raw const BAR, 1, bytes);
        }}
        thread::sync_threads();
        let mut spins = 0u32;  // bounded: a copy that never lands fails the test, not hangs
        while !mbarrier_try_wait_parity(&raw const BAR, 0) && spins < 1000000 {{
            spins += 1;
        }}
        let mut k = t;
        while k < bytes / 4 && (k as usize) < out.len() {{
            *out.get_unchecked_mut(k as usize) = TILE[k as usize];
            k += thread::blockDim_x();
        }}
    }}
}}
"""


def store_kernel(n: int) -> str:
    """The block fills shared memory with `vals`; thread 0 stores it as the box at c."""
    return f"""
#[kernel]
pub fn store_{n}d_value(dst: TmaDescriptor, c: &[i32], bytes: u32, vals: &[f32]) {{
    static mut TILE: SharedArray<f32, 2048, 128> = SharedArray::UNINIT;
    let t = thread::threadIdx_x();
    unsafe {{
        let mut k = t;
        while k < bytes / 4 && (k as usize) < vals.len() {{
            TILE[k as usize] = vals[k as usize];
            k += thread::blockDim_x();
        }}
        fence_proxy_async_shared_cta();
        thread::sync_threads();
        if t == 0 && c.len() == 5 {{
            cp_async_bulk_tensor_{n}d_s2g(&raw const TILE as *const u8, &dst, {coords(n)});
            cp_async_bulk_commit_group();
            cp_async_bulk_wait_group(0);
        }}
    }}
}}
"""


SRC = PRELUDE + "".join(load_kernel(n, v) for n in range(1, 6) for v in (True, False)) + \
    "".join(store_kernel(n) for n in range(1, 6))

# rank -> (shape in NumPy order, box): whole and clipped boxes, 16-byte inner rows
SHAPES = {1: ((1000,), (64,)), 2: ((40, 24), (8, 8)), 3: ((6, 10, 40), (2, 4, 16)),
          4: ((3, 5, 6, 12), (2, 3, 2, 4)), 5: ((3, 2, 4, 6, 8), (2, 1, 2, 3, 4))}


def build(arch: str = "sm_90") -> driver.Compilation:
    try:
        return driver.compile_source(SRC, "tma_by_value.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def test_by_value_descriptor_stays_in_param_space():
    ptx = build().ptx
    for n in range(1, 6):
        head = ptx[ptx.index(f".entry load_{n}d_value("):]
        head = head[:head.index("ret;")]
        assert ".param .align 64 .b8 load_%dd_value_param_0[128]" % n in head
        assert f"mov.u64 \t%rd1, load_{n}d_value_param_0;\n\tcvta.param.u64 \t%rd1, %rd1;" \
            in head and ".local" not in head
        assert f"[load_{n}d_value_param_0" not in head  # no copy of the descriptor
        assert f"cp.async.bulk.tensor.{n}d.shared::cluster" in head
    store = ptx[ptx.index(".entry store_5d_value("):]
    assert "cvta.param.u64" in store and ".local" not in store[:store.index("ret;")]


@pytest.mark.parametrize("arch", ["sm_90", "sm_90a"])
def test_by_value_kernels_assemble(arch, ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(build().ptx)
    r = subprocess.run([ptxas, f"-arch={arch}", "-v", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr and "bytes stack frame" in r.stderr, r.stderr
    assert all(line.split()[0] == "0" for line in r.stderr.splitlines()
               if "bytes stack frame" in line), r.stderr


def test_by_value_descriptor_is_packed_as_its_bytes():
    from oxidec.runtime.launch import pack_params, ptx_params
    from oxidec.signature import kernel_signatures
    sig = kernel_signatures(build().program)["load_2d_value"]
    layout = ptx_params(sig)
    assert layout[0].name == "src" and ctypes.sizeof(layout[0].ctype) == 128
    raw = np.arange(16, dtype=np.uint64).tobytes()
    blobs = pack_params(sig, [raw, (0x1000, 5), 64, (0x2000, 16)]).blobs()
    assert blobs[0] == raw and len(blobs) == 6


def test_simulator_refuses_a_by_value_copy(rng):
    from oxidec.api import compile_source
    from oxidec.sim import SimError
    mod = compile_source(SRC, "tma_by_value.rs", arch="sm_90")
    a = rng.uniform(-1, 1, (40, 24)).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    with pytest.raises(SimError, match="runs on the GPU only"):
        mod.load_2d_value[(1,), (64,)](TensorMap(a, (8, 8)), np.zeros(5, np.int32), 256, out,
                                       device="sim")
    assert np.isnan(out).all()


ALIGN = 4  # f32 elements in 16 bytes


def _start(rng, shape, box):
    """A box origin (NumPy order); the last axis' box may hang past the end (clipped).
    The innermost coordinate is a multiple of 16 bytes: on the H200 a box whose innermost
    start is not (4 or 968 floats work, 5 or 970 do not) faults with an illegal instruction
    (measured 2026-12-03; device_api/tma.py)."""
    start = [int(rng.integers(0, n - b + 1)) for n, b in zip(shape, box)]
    start[-1] = shape[-1] - box[-1] // 2 if rng.integers(0, 2) else start[-1]
    start[-1] -= start[-1] % ALIGN
    return start


def _coords(start) -> np.ndarray:
    c = np.zeros(5, np.int32)
    c[:len(start)] = start[::-1]  # innermost first
    return c


@pytest.mark.gpu
@pytest.mark.parametrize("by_value", [True, False], ids=["value", "ptr"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_bulk_tensor_load_on_gpu(n, by_value, rng):
    from oxidec.api import compile_source
    mod = compile_source(SRC, "tma_by_value.rs", arch="sm_90")
    shape, box = SHAPES[n]
    src = rng.uniform(-1, 1, shape).astype(np.float32)
    start = _start(rng, shape, box)
    nbox = int(np.prod(box))
    out = np.full(nbox, np.nan, np.float32)
    kernel = getattr(mod, f"load_{n}d_{'value' if by_value else 'ptr'}")
    kernel[(1,), (64,)](TensorMap(src, box), _coords(start), nbox * 4, out, device="gpu")
    padded = np.zeros([s + b for s, b in zip(shape, box)], np.float32)  # zeros outside
    padded[tuple(slice(0, s) for s in shape)] = src
    want = padded[tuple(slice(s, s + b) for s, b in zip(start, box))].reshape(-1)
    np.testing.assert_array_equal(out, want)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_bulk_tensor_store_on_gpu(n, rng):
    from oxidec.api import compile_source
    mod = compile_source(SRC, "tma_by_value.rs", arch="sm_90")
    shape, box = SHAPES[n]
    dst = np.full(shape, np.nan, np.float32)
    start = _start(rng, shape, box)
    vals = rng.uniform(-1, 1, int(np.prod(box))).astype(np.float32)
    kernel = getattr(mod, f"store_{n}d_value")
    kernel[(1,), (64,)](TensorMap(dst, box), _coords(start), vals.size * 4, vals, device="gpu")
    want = np.full(shape, np.nan, np.float32)
    region = tuple(slice(s, min(s + b, d)) for s, b, d in zip(start, box, shape))
    kept = tuple(slice(0, r.stop - r.start) for r in region)  # what lies inside the tensor
    want[region] = vals.reshape(box)[kept]
    np.testing.assert_array_equal(dst, want)
