"""Enum values wherever a value can be: struct fields, array elements, function arguments and
results, shared memory; `expect` on `None` panics with its message (simulator and GPU)."""
from __future__ import annotations

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


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_expect_on_none_panics_with_its_message(module, device, rng, capfd) -> None:
    n = 64
    x = rng.uniform(0.25, 4.0, n).astype(np.float32)
    x[int(rng.integers(n))] = -1.0
    out = np.full(n, np.nan, np.float32)
    with pytest.raises(Exception) as err:
        module.prog[(1, 1, 1), (64, 1, 1)](x, out, device=device)
    if device == "sim":  # on the GPU a trap may lose the printf buffer with the context
        assert "enum_program.rs" in str(err.value)
        printed = capfd.readouterr()
        assert "input must be positive" in printed.out + printed.err
