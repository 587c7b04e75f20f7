"""The stated bounds of the cheap f32 cores (explog32.exp_poly/exp2_poly, hyper32.tanh),
checked by strided sweeps over every binade of their ranges and at the worst inputs that the
exhaustive sweeps (tests/math_exhaustive.py: every f32 input) found. The maxima recorded in
the routines' docs come from those exhaustive runs; a change of a core that moves them shows
here (the pinned worst cases must keep their error to 1e-3 ulp)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import math_exhaustive as mx  # noqa: E402

from oxidec import mathlib  # noqa: E402

BOUND = 1.0  # the stated bound of every NATIVE_F32 routine

H = float.fromhex
# routine -> (stride of the sweep, {the worst inputs found by the exhaustive sweep: error})
CASES = {
    "exp": (2039, {H("-0x1.7905dep+2"): 0.8736, H("0x1.dfa068p+5"): 0.8701,
                   H("0x1.048dd0p+4"): 0.8605, H("-0x1.2e3756p+5"): 0.8591}),
    "exp2": (2039, {H("-0x1.f9e7a8p+6"): 0.8677}),  # a subnormal result
    "tanh": (1021, {H("0x1.13be8ep-1"): 0.7870, H("0x1.eb5500p-2"): 0.6455,
                    H("0x1.bb1eb4p-1"): 0.6039}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_strided_sweep_holds_the_bound(name: str) -> None:
    stride, _ = CASES[name]
    worst, where, seen = mx.sweep(name, stride)
    assert seen > 1_000_000
    assert worst <= BOUND, f"{name}({where!r}): {worst:.4f} ulp"


@pytest.mark.parametrize("name", sorted(CASES))
def test_exhaustive_worst_cases(name: str) -> None:
    ref_fn, _ = mx.REFS[name]
    pinned = CASES[name][1]
    if not pinned:
        pytest.skip("no exhaustive run recorded")
    x = np.array(list(pinned), np.float32)
    got = np.asarray(mathlib.simulate(name, [x]), np.float32)
    err = mx.ulp_error(got, ref_fn(x.astype(np.float64)))
    for xi, e in zip(x, err):
        assert e <= BOUND
        assert abs(e - pinned[float(xi)]) < 1e-3, (float(xi), e, pinned[float(xi)])


def test_subnormal_results_every_input() -> None:
    """exp and exp2 round twice for a subnormal result (the core to 24 bits, then 2^k to the
    subnormal grid): every input of those bands, exhaustively (8M inputs)."""
    f32 = lambda v: int(np.float32(v).view(np.uint32))  # noqa: E731
    for name, lo, hi in (("exp", 87.0, 104.0), ("exp2", 125.0, 151.0)):
        worst, where, _ = mx.sweep(name, 1, lo_bits=f32(lo), hi_bits=f32(hi))
        assert worst <= BOUND, f"{name}({where!r}): {worst:.4f} ulp"


def test_tanh_branches_and_specials() -> None:
    """Both of tanh's forms around the switch, the saturation to 1, signed zeros, NaN."""
    from oxidec.mathlib import hyper32
    x = np.array([0.0, -0.0, 1e-30, -1e-45, hyper32.TANH_SMALL, -hyper32.TANH_SMALL,
                  np.nextafter(np.float32(hyper32.TANH_SMALL), np.float32(0)), 9.0, 9.125,
                  -20.0, np.inf, -np.inf, np.nan], np.float32)
    got = np.asarray(mathlib.simulate("tanh", [x]), np.float32)
    assert got[0].tobytes() == np.float32(0.0).tobytes()
    assert got[1].tobytes() == np.float32(-0.0).tobytes()
    assert got[2] == np.float32(1e-30) and got[3] == np.float32(-1e-45)
    err = mx.ulp_error(got[4:9], np.tanh(x[4:9].astype(np.float64)))
    assert (err <= BOUND).all(), err
    assert list(got[8:12]) == [1.0, -1.0, 1.0, -1.0]
    assert got[12:].view(np.uint32)[0] == 0x7FC00000
