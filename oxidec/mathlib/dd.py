"""Building blocks written in the DSL: error-free transformations (double-double arithmetic),
polynomials, scaling by powers of two, classification.

A double-double is a pair (hi, lo) with |lo| <= ulp(hi)/2 whose sum carries about 106 bits.
The transformations are exact in round-to-nearest (Knuth's TwoSum, Dekker's Fast2Sum,
the fma product error), which is why every primitive in the DSL is exactly rounded.
"""
from __future__ import annotations

from .ir import F32, F64, PRED, S32, S64, U32, U64, Val, as_val, const, fabs, fma, select


def two_sum(a: Val, b) -> tuple[Val, Val]:
    """s + e == a + b exactly (any magnitudes)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def fast_two_sum(a: Val, b) -> tuple[Val, Val]:
    """s + e == a + b exactly when |a| >= |b| (or a == 0)."""
    s = a + b
    e = b - (s - a)
    return s, e


def two_prod(a: Val, b) -> tuple[Val, Val]:
    """p + e == a * b exactly (barring underflow)."""
    p = a * b
    e = fma(a, b, -p)
    return p, e


def dd_div(nh: Val, nl, dh: Val, dl) -> Val:
    """(nh + nl) / (dh + dl), rounded once at the end: about 0.5 ulp plus 2^-100 relative."""
    q = nh / dh
    rem = fma(-q, dh, nh) + (nl - q * dl)
    return q + rem / dh


def dd_div_pair(nh: Val, nl, dh: Val, dl) -> tuple[Val, Val]:
    q = nh / dh
    rem = fma(-q, dh, nh) + (nl - q * dl)
    return q, rem / dh


def horner(x: Val, coeffs) -> Val:
    """c[0] + c[1] x + ... + c[n] x^n, with fma."""
    acc = as_val(coeffs[-1], x.ty)
    for c in reversed(coeffs[:-1]):
        acc = fma(acc, x, c)
    return acc


def is_finite(x: Val) -> Val:
    return fabs(x) < float("inf")


def sign_bit(x: Val) -> Val:
    """True when the sign bit is set (so also for -0.0 and negative NaNs)."""
    return x.bits().view(S64 if x.ty.bits == 64 else S32) < 0


def scale2(x: Val, k: Val) -> Val:
    """x * 2^k for an s32 k in [-2044, 2046], with one rounding at most (the last step),
    so the result is correctly rounded when it is subnormal and inf when it overflows."""
    k1 = k >> 1
    k2 = k - k1
    return (x * pow2_f64(k1)) * pow2_f64(k2)


def pow2_f64(k: Val) -> Val:
    """2.0^k as an f64 for an s32 k in [-1022, 1023]."""
    return ((k + 1023).cvt(U32).cvt(U64) << 52).view(F64)


def exponent_f64(x: Val) -> Val:
    """The biased exponent field of an f64 (s32)."""
    return ((x.bits() >> 52).cvt(U32) & 0x7FF).view(S32)


def sel_pair(p: Val, a: tuple, b: tuple) -> tuple[Val, Val]:
    return select(p, a[0], b[0]), select(p, a[1], b[1])


def f64c(v: float) -> Val:
    return const(v, F64)


__all__ = ["two_sum", "fast_two_sum", "two_prod", "dd_div", "dd_div_pair", "horner",
           "is_finite", "sign_bit", "scale2", "pow2_f64", "exponent_f64", "sel_pair", "f64c",
           "F32", "PRED"]
