"""Generic kernels run: instances from a `#[kernel(f32, f64)]` type list and from host launch
sites (`add_const::<7>`, `window_sum::<i32, 3>`), with their documented entry names, on the
simulator and on the GPU, against NumPy."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxidec import api, driver

KERNEL = Path(__file__).resolve().parent / "kernels" / "generic_kernels.rs"
DEVICES = ["sim", pytest.param("gpu", marks=pytest.mark.gpu)]


def test_entry_names() -> None:
    ptx = driver.compile_file(KERNEL).ptx
    entries = sorted(line.split()[2].rstrip("(") for line in ptx.splitlines()
                     if line.startswith(".visible .entry"))
    assert entries == ["add_const_4000000000", "add_const_7", "affine_clip_f32",
                       "affine_clip_f64", "window_sum_i32_3"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_affine_clip(device, dtype, rng) -> None:
    module = api.compile_file(KERNEL)
    n = int(rng.integers(100, 300))
    a, b, limit = (dtype(v) for v in rng.uniform(-2.0, 2.0, 3))
    x = rng.uniform(-4.0, 4.0, n).astype(dtype)
    out = np.full(n, np.nan, dtype)
    kernel = getattr(module, f"affine_clip_{np.dtype(dtype).name[0]}{np.dtype(dtype).itemsize * 8}")
    kernel[((n + 63) // 64, 1, 1), (64, 1, 1)](a, b, limit, x, out, device=device)
    y = a * x + b  # the same two roundings in dtype (fma contraction may fuse: tolerance)
    want = np.where(np.arange(n) % 2 == 0, np.minimum(y, limit), y)
    tol = 4 * np.finfo(dtype).eps * (np.abs(a * x) + np.abs(b))
    assert np.all(np.abs(out - want) <= tol)


@pytest.mark.parametrize("device", DEVICES)
def test_add_const_instances(device, rng) -> None:
    module = api.compile_file(KERNEL)
    n = int(rng.integers(100, 300))
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    for value in (7, 4000000000):
        out = np.full(n, 0xDEADBEEF, np.uint32)
        getattr(module, f"add_const_{value}")[((n + 63) // 64, 1, 1), (64, 1, 1)](
            x, out, device=device)
        np.testing.assert_array_equal(out, (x.astype(np.uint64) + value).astype(np.uint32))


@pytest.mark.parametrize("device", DEVICES)
def test_window_sum_instance(device, rng) -> None:
    module = api.compile_file(KERNEL)
    n = int(rng.integers(100, 300))
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    out = np.full(n, -12345, np.int32)
    module.window_sum_i32_3[((n + 63) // 64, 1, 1), (64, 1, 1)](x, out, device=device)
    idx = np.arange(n)
    np.testing.assert_array_equal(out, x + x[(idx + 1) % n] + x[(idx + 2) % n])
