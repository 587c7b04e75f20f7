"""The f32 `exp`/`exp2` scale by 2^k from the shifter sum's bits (explog32.scale2_f32_of_sum)
and return the canonical NaN themselves (mathlib.CANONICAL_NAN): the same bits as the
two-step `scale2_f32` with k, k1, k2 and `pow2`, in fewer instructions."""
from __future__ import annotations

import numpy as np

from oxidec import driver, mathlib
from oxidec.mathlib import explog32
from oxidec.mathlib.ir import F32, S32, trace
from oxidec.mathlib.npexec import Runner


def test_scaling_from_the_sum_is_the_two_step_scaling(rng) -> None:
    k = np.repeat(np.arange(-152, 131, dtype=np.int32), 64)
    y = rng.uniform(0.5, 2.0, k.size).astype(np.float32)
    t = (np.float32(explog32.SHIFTER) + k.astype(np.float32)).astype(np.float32)
    old = Runner(trace("old", explog32.scale2_f32, [F32, S32])).run([y, k])
    new = Runner(trace("new", explog32.scale2_f32_of_sum, [F32, F32])).run([y, t])
    assert np.array_equal(np.asarray(old, np.float32).view(np.uint32),
                          np.asarray(new, np.float32).view(np.uint32))


def test_exp_tests_for_nan_once() -> None:
    src = """
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let i = t.get();
    if let Some(o) = out.get_mut(t) { *o = x[i].exp() + x[i].exp2(); }
}
"""
    ptx = driver.compile_source(src, "k.rs", driver.Options(line_info=False, index32=False)).ptx
    # one NaN test of the argument per routine; no canonicalising test of the result
    tests = ptx.count("setp.nan.f32") + ptx.count("testp.notanumber.f32")
    assert tests == 2, ptx


def test_exp_nan_is_canonical() -> None:
    x = np.array([np.nan, -np.nan, np.float32(1.0), np.inf, -np.inf], np.float32)
    x[1] = np.uint32(0xFFC12345).view(np.float32)  # a NaN with a payload
    for name in ("exp", "exp2"):
        got = np.asarray(mathlib.simulate(name, [x]), np.float32).view(np.uint32)
        assert list(got[:2]) == [0x7FC00000, 0x7FC00000]
        assert got[3] == 0x7F800000 and got[4] == 0


def _sweep(rng, limit: float) -> np.ndarray:
    """Random bit patterns, a uniform spread over the whole finite range of results, and the
    neighbourhood of the fast path's limits (where the branch is decided)."""
    bits = rng.integers(0, 2**32, 400_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    wide = rng.uniform(-2 * limit, 2 * limit, 400_000).astype(np.float32)
    edges = np.concatenate([np.float32(s * limit) + np.arange(-4096, 4097, dtype=np.float32)
                            * np.float32(2.0**-12) for s in (-1, 1)]).astype(np.float32)
    ulps = np.array([np.nextafter(np.float32(s * limit), np.float32(d * np.inf))
                     for s in (-1, 1) for d in (-1, 1)], np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], np.float32)
    return np.concatenate([bits, wide, edges, ulps, special])


def test_exp_fast_path_is_the_general_routine(rng) -> None:
    """The fast path (normal results: no clamp, no NaN test, 2^k by adding k 2^23 to the
    bits) gives the general routine's bits on every input, and the branch is taken."""
    cases = (("exp", explog32.exp, explog32.exp_general, explog32.EXP_FAST_LIMIT),
             ("exp2", explog32.exp2, explog32.exp2_general, explog32.EXP2_FAST_LIMIT))
    for name, fast, general, limit in cases:
        x = _sweep(rng, limit)
        got = np.asarray(Runner(trace(name, fast, [F32])).run([x]), np.float32)
        want = np.asarray(Runner(trace(name + "_g", general, [F32])).run([x]), np.float32)
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), name
        inside = np.abs(x) <= limit
        assert inside.sum() > 100_000 and (~inside).sum() > 100_000
