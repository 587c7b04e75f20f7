"""The simulator's NaN and signed-zero results are the H200's (measured op by op with
tests/gpu_ops_diff on the H200; each row here is one of its reported inputs)."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.sim import ops
from oxidec.sim.intrinsics import INTRINSICS

# NaN-producing inputs on purpose (the simulator's machine runs with these warnings off)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def f32(bits):
    return np.array(bits, dtype=np.uint32).view(np.float32)


def f64(bits):
    return np.array(bits, dtype=np.uint64).view(np.float64)


def bits(a):
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64).tolist()


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_f32_arithmetic_gives_the_canonical_nan(op):
    a, b = f32([0x0, 0x0, 0x7F800000]), f32([0x7FC00000, 0xFFC00001, 0xFF800000])
    got = bits(ops.binary(op, a, b))
    assert got[:2] == [0x7FFFFFFF, 0x7FFFFFFF]
    if op in ("add", "div"):  # inf + -inf, inf / -inf: invalid, canonical too
        assert got[2] == 0x7FFFFFFF


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_f64_arithmetic_returns_the_last_nan_operand_quieted(op):
    a = f64([0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000])
    b = f64([0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001])
    assert bits(ops.binary(op, a, b)) == [0x7FF8000000000001, 0xFFF8000000000000,
                                          0x7FF8000000000001]


def test_f64_div_returns_the_first_nan_operand():
    a = f64([0x7FF8000000000000, 0x7FF8000000000000])
    b = f64([0x7FF8000000000001, 0xFFF8000000000000])
    assert bits(ops.binary("div", a, b)) == [0x7FF8000000000000, 0x7FF8000000000000]


def test_f64_fma_quiets_a_signalling_addend_and_prefers_the_first_nan():
    z = f64([0x0, 0x0])
    got = INTRINSICS["fma"](None, [z, f64([0x0, 0x7FF8000000000000]),
                                   f64([0x7FF0000000000001, 0x7FF8000000000001])], None, None)
    assert bits(got) == [0x7FF8000000000001, 0x7FF8000000000000]


def test_min_max_order_signed_zeros_and_canonicalise_f32():
    mn, mx = INTRINSICS["min"], INTRINSICS["max"]
    assert bits(mn(None, [f32([0x80000000]), f32([0x0])], None, None)) == [0x80000000]
    assert bits(mx(None, [f32([0x0]), f32([0x80000000])], None, None)) == [0x0]
    assert bits(mn(None, [f64([1 << 63]), f64([0])], None, None)) == [1 << 63]
    assert bits(mn(None, [f32([0x7FC00000]), f32([0x7FC00001])], None, None)) == [0x7FFFFFFF]
    assert bits(mn(None, [f32([0x7FC00000]), f32([0x3F800000])], None, None)) == [0x3F800000]


def test_f32_sqrt_of_a_negative_is_the_canonical_nan():
    assert bits(INTRINSICS["sqrt"](None, [f32([0xBF800000])], None, None)) == [0x7FFFFFFF]


def test_neg_flips_the_sign_bit_of_a_nan():
    assert bits(ops.unary("neg", f32([0x7FC00000]))) == [0xFFC00000]
