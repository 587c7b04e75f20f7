"""`assert!`, `assert_eq!`, `assert_ne!`, `panic!`, `unreachable!`, `todo!` and a failed
`split_at` trap with their message: on the simulator a `SimTrap` naming it (and the formatted
message printed, as rustc's panic prints it), on the GPU a trap (in a child process: a fault
poisons the CUDA context)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec import api
from oxidec.sim.errors import SimTrap

KERNEL = Path(__file__).resolve().parent / "kernels" / "panics.rs"


@pytest.fixture(scope="module")
def module():
    return api.compile_file(KERNEL)


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_passing_assertions_do_not_trap(module, device, rng) -> None:
    n = 256
    x = rng.uniform(0.25, 4.0, n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    module.checked[(n // 64, 1, 1), (64, 1, 1)](x, out, device=device)
    np.testing.assert_array_equal(out, x * np.float32(2.0))
    modes = rng.choice(np.array([0, 7, 8, 9], np.uint32), n)
    got = np.full(n, 0xDEADBEEF, np.uint32)
    module.modes[(n // 64, 1, 1), (64, 1, 1)](modes, got, device=device)
    np.testing.assert_array_equal(got, np.where(modes == 0, 1003, modes).astype(np.uint32))


def test_failed_assert_traps_with_its_message(module, rng, capfd) -> None:
    n = 64
    x = rng.uniform(0.25, 4.0, n).astype(np.float32)
    bad = int(rng.integers(n))
    x[bad] = -1.5
    out = np.full(n, np.nan, np.float32)
    with pytest.raises(SimTrap, match="negative input") as err:
        module.checked[(1, 1, 1), (64, 1, 1)](x, out, device="sim")
    assert err.value.thread == (bad, 0, 0)
    assert "panics.rs:14" in str(err.value)
    printed = capfd.readouterr()
    assert f"negative input -1.5 at {bad}" in printed.out + printed.err


@pytest.mark.parametrize("mode, message, printed", [
    (1, "assertion `left == right` failed: mode {}", "left: 2\n right: 3"),
    (2, "internal error: entered unreachable code: mode {} of thread {}", "mode 2 of thread"),
    (3, "explicit mode {}", "explicit mode 3"),
    (4, "not yet implemented", "not yet implemented"),
    (5, "mid > len", ""),
    (6, "assertion `left != right` failed", "left: 6\n right: 6"),
])
def test_each_macro_traps_with_rustc_message(module, mode, message, printed, rng,
                                             capfd) -> None:
    n = 64
    x = np.zeros(n, np.uint32)
    at = int(rng.integers(n))
    x[at] = mode
    out = np.full(n, 0xDEADBEEF, np.uint32)
    with pytest.raises(SimTrap) as err:
        module.modes[(1, 1, 1), (64, 1, 1)](x, out, device="sim")
    assert err.value.reason == message
    assert err.value.thread == (at, 0, 0)
    text = capfd.readouterr()
    assert printed in text.out + text.err


@pytest.mark.gpu
def test_failed_assert_traps_on_gpu() -> None:
    code = f"""
import numpy as np
from oxidec import api
from oxidec.runtime.errors import CudaError
m = api.compile_file({str(KERNEL)!r})
x = np.full(64, 2.0, np.float32); x[17] = -1.0
out = np.full(64, np.nan, np.float32)
try:
    m.checked[(1, 1, 1), (64, 1, 1)](x, out, device="gpu")
except CudaError as e:
    print("CUDAERROR", e)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert "CUDAERROR" in proc.stdout, proc.stdout + proc.stderr
    assert "checked" in proc.stdout


@pytest.mark.parametrize("lo, hi, message", [
    (3, 70, "range end index out of range for slice"),
    (9, 5, "slice index starts after it ends"),
])
def test_sub_slice_out_of_range_traps(module, lo, hi, message, rng) -> None:
    x = rng.integers(0, 2**32, 64, dtype=np.uint32)
    out = np.full(64, 0xDEADBEEF, np.uint32)
    with pytest.raises(SimTrap) as err:
        module.window[(1, 1, 1), (64, 1, 1)](x, lo, hi, out, device="sim")
    assert err.value.reason == message


def test_sub_slice_in_range(module, rng) -> None:
    x = rng.integers(0, 2**32, 64, dtype=np.uint32)
    lo, hi = 5, 5 + int(rng.integers(1, 59))
    out = np.full(64, 0xDEADBEEF, np.uint32)
    module.window[(1, 1, 1), (64, 1, 1)](x, lo, hi, out, device="sim")
    np.testing.assert_array_equal(out, x[lo:hi][np.arange(64) % (hi - lo)])
