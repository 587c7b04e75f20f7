"""Enum values wherever a value can be: struct fields, array elements, function arguments and
results, shared memory; `expect` on `None` panics with its message (simulator and GPU)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec import api

KERNEL = Path(__file__).resolve().parent / "kernels" / "enum_program.rs"


def reference(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for i, v in enumerate(x):
        t = (i % 64 + 1) % 64  # the neighbour's op in shared memory
        v = np.float32(np.float32(v + np.float32(1.5)) + np.float32(1.5)) * np.float32(0.5)
        if t % 3 == 0:
            v = v * np.float32(2.0)
        elif t % 3 == 1:
            v = -v
        else:
            v = v + np.float32(t)
        out[i] = v
    return out


@pytest.fixture(scope="module")
def module():
    return api.compile_file(KERNEL)


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_enum_program_matches_reference(module, device, rng) -> None:
    n = 256
    x = rng.uniform(0.25, 4.0, n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    module.prog[(n // 64, 1, 1), (64, 1, 1)](x, out, device=device)
    np.testing.assert_array_equal(out, reference(x))


def test_expect_on_none_panics_with_its_message(module, rng, capfd) -> None:
    n = 64
    x = rng.uniform(0.25, 4.0, n).astype(np.float32)
    x[int(rng.integers(n))] = -1.0
    out = np.full(n, np.nan, np.float32)
    with pytest.raises(Exception) as err:
        module.prog[(1, 1, 1), (64, 1, 1)](x, out, device="sim")
    assert "enum_program.rs" in str(err.value)
    printed = capfd.readouterr()
    assert "input must be positive" in printed.out + printed.err


@pytest.mark.gpu
def test_expect_on_none_traps_on_gpu() -> None:
    # A device fault poisons the process's CUDA context (every later launch in it fails), so
    # the launch runs in a child; on the GPU a trap may lose the printf buffer with the context.
    code = f"""
import numpy as np
from oxidec import api
from oxidec.runtime.errors import CudaError
m = api.compile_file({str(KERNEL)!r})
x = np.full(64, 2.0, np.float32); x[17] = -1.0
out = np.full(64, np.nan, np.float32)
try:
    m.prog[(1, 1, 1), (64, 1, 1)](x, out, device="gpu")
except CudaError as e:
    print("CUDAERROR", e)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert "CUDAERROR" in proc.stdout, proc.stdout + proc.stderr
    assert "prog" in proc.stdout
