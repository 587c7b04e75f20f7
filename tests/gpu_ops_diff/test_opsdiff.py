"""The simulator gives the GPU's bits on every operation: opsdiff.py's kernels (one per
operation and type, from the compiler's own tables) on both, compared bit for bit."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import opsdiff  # noqa: E402


def test_every_registry_op_has_a_kernel() -> None:
    names = {k.name for k, _ in opsdiff.all_kernels()}
    # binary operators of ast.BINOPS, casts both ways, number methods of the registry
    for must in ("add_f32", "rem_f64", "div_i64", "shl_u8", "ge_isize", "cast_f64_u8",
                 "cast_u64_f32", "mul_add_f64", "round_f32", "trunc_f64", "sqrt_f32",
                 "powi_f64", "leading_zeros_u16", "wrapping_mul_i32", "not_u64", "neg_f32"):
        assert must in names, must
    assert len(names) > 400


def test_kernels_compile_and_run_on_the_simulator(rng) -> None:
    # A slice of the set here (the whole set runs beside the GPU): the machinery works and
    # the poison is overwritten everywhere.
    kernels = [kr for kr in opsdiff.all_kernels()
               if kr[0].name in ("rem_f32", "div_i8", "cast_f32_u16", "mul_add_f64", "shr_i64")]
    results = opsdiff.run(kernels, 300, int(rng.integers(1 << 30)), ("sim",))
    for name, r in results.items():
        assert (r["sim"] != np.uint64(0xDEADBEEFDEADBEEF)).all(), name
    rem = results["rem_f32"]  # Rust's float % is fmod, exact: NumPy's fmod is the reference
    a = rem["inputs"][0].astype(np.uint32).view(np.float32)
    b = rem["inputs"][1].astype(np.uint32).view(np.float32)
    got = rem["sim"].astype(np.uint32).view(np.float32)
    with np.errstate(all="ignore"):
        want = np.fmod(a, b)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))


@pytest.mark.gpu
def test_simulator_matches_gpu_bit_for_bit(rng) -> None:
    kernels = opsdiff.all_kernels()
    results = opsdiff.run(kernels, 4096, int(rng.integers(1 << 30)), ("sim", "gpu"))
    lines = opsdiff.differences(results)
    assert not lines, f"{len(lines)} of {len(kernels)} kernels differ:\n" + "\n".join(lines)
