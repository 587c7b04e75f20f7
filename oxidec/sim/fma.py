"""Exact fused multiply-add on lane vectors, without `math.fma` (Python < 3.13).

f32: the product of two f32 is exact in f64, and the sum is computed in f64 with
*round-to-odd* before the final rounding to f32; since 53 >= 24 + 2, RN32(RO64(x)) == RN32(x)
(Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
rounding to odd", IEEE TC 2008), so there is no double-rounding error.

f64: Dekker's exact product (Veltkamp split) gives a*b = ph + pl exactly; then the emulated
FMA of the same paper: (th, tl) = 2Sum(c, ph), v = RO(tl + pl), z = RN(th + v). Zero and
non-finite operands are exact in plain arithmetic; operands whose magnitudes could make the
split overflow or the error terms underflow take an exact path through `fractions.Fraction`
(per element; products below 2^-900 or above 2^1000 only).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

_INF = np.inf


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    a, b, c = np.broadcast_arrays(a, b, c)
    with np.errstate(all="ignore"):
        if a.dtype == np.float32:
            return _fma32(a, b.astype(np.float32), c.astype(np.float32))
        return _fma64(a.astype(np.float64), b.astype(np.float64), c.astype(np.float64))


def _two_sum(a, b):
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _round_to_odd(s, e):
    """s = RN(x), e = x - s exactly -> RO(x): the neighbour of x whose last bit is odd."""
    even = (s.view(np.int64) & 1) == 0
    need = (e != 0) & even & np.isfinite(s)
    if not need.any():
        return s
    toward = np.nextafter(s, np.where(e > 0, _INF, -_INF))
    return np.where(need, toward, s)


def _fma32(a, b, c):
    p = a.astype(np.float64) * b.astype(np.float64)  # exact
    s, e = _two_sum(p, c.astype(np.float64))
    finite = np.isfinite(s) & np.isfinite(e)
    r = np.where(finite, _round_to_odd(s, np.where(finite, e, 0.0)), s)
    return r.astype(np.float32)


_SPLIT = 134217729.0  # 2^27 + 1


def _split(x):
    t = _SPLIT * x
    hi = t - (t - x)
    return hi, x - hi


def _fma64(a, b, c):
    ph = a * b
    fin_ab = np.isfinite(a) & np.isfinite(b)
    zero_ab = (a == 0) | (b == 0)
    plain = ~fin_ab | (zero_ab & np.isfinite(c))  # a*b + c is already the fused result
    aph = np.abs(ph)
    fast = (fin_ab & ~zero_ab & (c != 0) & (np.abs(a) < 2.0 ** 995) & (np.abs(b) < 2.0 ** 995)
            & (aph > 2.0 ** -900) & (aph < 2.0 ** 1000) & (np.abs(c) < 2.0 ** 1000))
    ah, al = _split(np.where(fast, a, 0.0))
    bh, bl = _split(np.where(fast, b, 0.0))
    pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl  # a*b == ph + pl exactly
    th, tl = _two_sum(c, ph)
    s, e = _two_sum(tl, pl)
    v = _round_to_odd(s, np.where(fast, e, 0.0))
    out = np.where(fast, th + v, 0.0)
    out = np.where(plain, ph + c, out)
    out = np.where(fin_ab & ~np.isfinite(c), c, out)  # finite * finite + inf
    out = np.where(fin_ab & ~zero_ab & (c == 0), ph, out)  # RN(a*b), signed underflow kept
    slow = np.flatnonzero((fin_ab & ~zero_ab & np.isfinite(c) & (c != 0) & ~fast).reshape(-1))
    if slow.size:
        flat = out.reshape(-1).copy()
        fa, fb, fc = a.reshape(-1), b.reshape(-1), c.reshape(-1)
        for i in slow:
            flat[i] = _fma_exact(float(fa[i]), float(fb[i]), float(fc[i]))
        out = flat.reshape(a.shape)
    return out


def _fma_exact(a: float, b: float, c: float) -> float:
    import math
    if not (math.isfinite(a) and math.isfinite(b)):
        return a * b + c  # the product is inf/NaN exactly as in the fused operation
    if not math.isfinite(c):
        return c
    if a == 0.0 or b == 0.0:
        return a * b + c  # exact: signed-zero rules of the sum
    if c == 0.0:
        return a * b  # RN(a*b), underflow to a signed zero included
    r = Fraction(a) * Fraction(b) + Fraction(c)
    if r == 0:
        return 0.0
    try:
        return r.numerator / r.denominator  # int true division rounds correctly
    except OverflowError:
        return math.inf if r > 0 else -math.inf  # (float(r) would overflow too)
