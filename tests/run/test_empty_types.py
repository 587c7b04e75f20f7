"""Empty types (`core::convert::Infallible`, `enum Never {}`): exhaustive matches on them,
irrefutable `let Ok(v)` with an empty error, and the trap of `assume_init` on one."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxidec import api
from oxidec.sim.errors import SimTrap

KERNEL = Path(__file__).resolve().parent / "kernels" / "empty_types.rs"


@pytest.fixture(scope="module")
def module():
    return api.compile_file(KERNEL)


def expected_results(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint64)
    a = x // 2
    b = (x * 3 + 1) & 0xFFFFFFFF
    c = (a * 3 + 1) & 0xFFFFFFFF
    return ((a + b + c + 5) & 0xFFFFFFFF).astype(np.uint32)


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_results_with_empty_errors(module, device, rng) -> None:
    n = 256
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    out = np.full(n, 0xDEADBEEF, np.uint32)
    module.empty_results[(n // 64, 1, 1), (64, 1, 1)](x, out, device=device)
    np.testing.assert_array_equal(out, expected_results(x))


def test_assume_init_of_inhabited_paths_runs(module, rng) -> None:
    n = 64
    flag = rng.choice(np.array([0, 3, 4], np.uint32), n)
    out = np.full(n, 0xDEADBEEF, np.uint32)
    module.assume_init_empty[(1, 1, 1), (64, 1, 1)](flag, out, device="sim")
    np.testing.assert_array_equal(out, flag + 10)


@pytest.mark.parametrize("mode, ty", [(1, "Infallible"), (2, "(u32, Never)")])
def test_assume_init_of_an_empty_type_traps(module, mode, ty, rng) -> None:
    n = 64
    flag = np.zeros(n, np.uint32)
    bad = int(rng.integers(n))
    flag[bad] = mode
    out = np.full(n, 0xDEADBEEF, np.uint32)
    with pytest.raises(SimTrap, match="uninhabited") as err:
        module.assume_init_empty[(1, 1, 1), (64, 1, 1)](flag, out, device="sim")
    assert err.value.thread == (bad, 0, 0)
    assert f"attempted to instantiate uninhabited type `{ty}`" in str(err.value)
