"""tanh and exp_m1 computed in f32 (the f64-based correctly rounded ones stay available as
`tanh_exact`, `exp_m1_exact`).

Both use the reduction of explog32.py: y = k ln2 + rh + rl, e^(rh + rl) = h + t with
h = 1 + rh rounded (its error exact by Fast2Sum) and t the small rest (degree-5 tail
polynomial); exp_m1 takes e^y - 1 as an f32 pair: e^y - 1 = (2^k h - 1) + 2^k t, where 2^k h is exact
(two-step scaling) and 2^k h - 1 exact by TwoSum; for k = 0 it is rh + (t - e) instead
(h - 1 would cancel against e when h rounds away from 1 + rh).
exp_m1: that pair rounded once; beyond 88.7 it overflows as e^x does, below -18 it is -1, and
below 2^-25 in magnitude it is x (signed zeros kept).
tanh |x| = 1 - 2/(e^2|x| + 1) for |x| >= 1/4, the quotient as a pair from a division-free
reciprocal (bit-pattern seed, Newton steps) and a remainder correction, 1 - qh split by
Fast2Sum; below, |x| + |x|^3 T(x^2) with T a degree-3 minimax fit (f32,
2^-24.7 relative, entering scaled by x^2/3 <= 0.02); from 10 on it is 1 (to f32).
The GPU runs no f64 op. Measured error: the table in mathlib/__init__.py.
"""
from __future__ import annotations

from . import coeffs as C
from .dd import fast_two_sum, horner, two_sum
from .explog32 import nearest_int
from .ir import F32, U32, const, copysign, fabs, fma, fmax, fmin, isnan, pow2, select

INF = float("inf")


def expm1_pair(y):
    """e^y - 1 as (hi, lo) for -18 <= y <= 89, and whether e^y overflows (the pair is NaN
    then)."""
    kf, k = nearest_int(y, C.LOG2E_F32)
    rh = fma(-kf, C.LN2_F32[0], y)  # exact
    rl = kf * -C.LN2_F32[1]
    h = 1.0 + rh
    e = rh - (h - 1.0)  # exact
    r = rh + rl
    r2 = r * r
    pr = horner(r, C.EXP_TAIL_F32)
    u = fma(r2, pr, fma(fma(r, r, -r2), pr, rl))  # rl + r^2 P(r), r^2 split exactly
    t = e + u
    k1 = k >> 1
    p1, p2 = pow2(k1, F32), pow2(k - k1, F32)
    a = (h * p1) * p2  # exact, or inf
    s, se = two_sum(a, -1.0)
    hi, lo = fast_two_sum(s, se + (t * p1) * p2)
    # k == 0: e^y - 1 = rh + u exactly (h + e == 1 + rh), no cancellation against h - 1
    zero = kf.eq(0.0)
    hi0, lo0 = fast_two_sum(rh, u)
    return select(zero, hi0, hi), select(zero, lo0, lo), a.eq(INF)


def exp_m1(x):
    xc = fmin(fmax(x, -18.0), 89.0)
    hi, lo, over = expm1_pair(xc)
    r = select(over, INF, hi + lo)
    r = select(x < -18.0, -1.0, r)
    r = select(fabs(x) < 2.0 ** -25, x, r)  # x + x^2/2 rounds to x
    return select(isnan(x), x, r)


def recip_approx(d):
    """1/d to about 2^-23 relative for a positive normal d, without a division: a bit-pattern
    seed (within 1/8) and three Newton steps in fma (the error squares each step)."""
    y = (const(0x7EF311C3, U32) - d.bits()).view(F32)
    for _ in range(3):
        y = fma(y, fma(-d, y, 1.0), y)
    return y


def exp_pair(y):
    """e^y as a normalised pair (hi, lo) for 0 <= y <= 20."""
    kf, k = nearest_int(y, C.LOG2E_F32)
    rh = fma(-kf, C.LN2_F32[0], y)  # exact
    rl = kf * -C.LN2_F32[1]
    h = 1.0 + rh
    e = rh - (h - 1.0)  # exact
    r = rh + rl
    t = fma(r * r, horner(r, C.EXP_TAIL_F32), e + rl)
    p = pow2(k, F32)
    return fast_two_sum(h * p, t * p)  # normalised: the reciprocal sees all but 2^-24


def tanh(x):
    a = fabs(x)
    small = a < 0.25  # below, the polynomial (fit on [0, 0.2501])
    # the polynomial
    z = a * a
    ps = a + a * z * horner(z, C.TANH_TAIL_F32)
    # 1 - q, q = 2 / (e^2a + 1) <= 0.503 as a pair: the reciprocal needs only 2^-20, the
    # remainder correction makes q good to about 2^-40, 1 - qh is split exactly
    ac = fmin(select(small, 1.0, a), 10.0)
    eh, el = exp_pair(ac + ac)
    dh, dl = fast_two_sum(eh, 1.0)
    dl = dl + el
    y = recip_approx(dh)
    qh = y + y
    ql = (fma(-qh, dh, 2.0) - qh * dl) * y
    s, e = fast_two_sum(const(1.0, F32), -qh)
    r = select(small, ps, s + (e - ql))
    r = copysign(r, x)
    return select(isnan(x), x, r)
