"""A generic kernel whose `#[launch_bounds(P::THREADS, P::BLOCKS)]` and `#[unroll(P::ITEMS)]`
come from a policy trait's associated constants: each instance has its own `.maxntid` /
`.minnctapersm`, its loop fully unrolled, and its results (simulator and GPU vs NumPy)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from oxidec import api, driver
from oxidec.runtime.errors import LaunchError

KERNEL = Path(__file__).resolve().parent / "kernels" / "policy_kernels.rs"
POLICIES = {"Narrow": (64, 4, 2, 0x13579BDF), "Wide": (256, 1, 4, 0x0F0FA5A5)}


def entry_text(ptx: str, name: str) -> str:
    start = ptx.index(f".entry salted_sums_{name}(")
    end = ptx.find(".entry", start + 1)
    return ptx[start:end if end >= 0 else len(ptx)]


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_bounds_and_unrolling_per_instance(name) -> None:
    threads, blocks, items, _ = POLICIES[name]
    ptx = driver.compile_file(KERNEL, driver.Options(index32=False)).ptx
    text = entry_text(ptx, name)
    assert f".maxntid {threads}, 1, 1" in text
    assert f".minnctapersm {blocks}" in text
    assert len(re.findall(r"\bxor\.b32", text)) == items  # one copy of the body per item


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_salted_sums(name, device, rng) -> None:
    threads, _, items, salt = POLICIES[name]
    module = api.compile_file(KERNEL)
    n = threads * 2
    x = rng.integers(0, 2**32, n * items, dtype=np.uint64).astype(np.uint32)
    out = np.full(n, 0xDEADBEEF, np.uint32)
    getattr(module, f"salted_sums_{name}")[(2, 1, 1), (threads, 1, 1)](x, out, device=device)
    want = (x ^ np.uint32(salt)).reshape(n, items).astype(np.uint64).sum(axis=1) & 0xFFFFFFFF
    np.testing.assert_array_equal(out, want.astype(np.uint32))


def test_launch_past_the_bound_is_refused(rng) -> None:
    module = api.compile_file(KERNEL)
    x = np.zeros(128 * 2, np.uint32)
    out = np.zeros(128, np.uint32)
    with pytest.raises(LaunchError, match=r"launch_bounds\(64"):
        module.salted_sums_Narrow[(1, 1, 1), (128, 1, 1)](x, out, device="sim")
