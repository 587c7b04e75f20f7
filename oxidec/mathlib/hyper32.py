"""tanh and exp_m1 computed in f32 (the f64-based correctly rounded ones stay available as
`tanh_exact`, `exp_m1_exact`).

exp_m1 uses the reduction of explog32.py: y = k ln2 + rh + rl, e^(rh + rl) = h + t with
h = 1 + rh rounded (its error exact by Fast2Sum) and t the small rest (degree-5 tail
polynomial); exp_m1 takes e^y - 1 as an f32 pair: e^y - 1 = (2^k h - 1) + 2^k t, where 2^k h is exact
(two-step scaling) and 2^k h - 1 exact by TwoSum; for k = 0 it is rh + (t - e) instead
(h - 1 would cancel against e when h rounds away from 1 + rh).
exp_m1: that pair rounded once; beyond 88.7 it overflows as e^x does, below -18 it is -1, and
below 2^-25 in magnitude it is x (signed zeros kept).
tanh |x| = 1 - 2/(e^2|x| + 1) for |x| >= 0.5625 (`tanh_quotient`: one e^2a with its last
rounding error kept, a linear-seed Newton reciprocal and one remainder correction, about 30
instructions); below, |x| + |x|^3 T(x^2) with T a degree-4 minimax fit; from 9.125 on it
is 1 (to f32). About 42 SASS instructions where the previous pair-based version (e^2a and
the quotient as f32 pairs, 0.56 ulp) took 63; `tanh_exact` is the f64-based one.
The GPU runs no f64 op. Measured error: the table in mathlib/__init__.py.
"""
from __future__ import annotations

import struct

from . import coeffs as C
from .dd import fast_two_sum, horner, two_sum
from .explog32 import SHIFTER, nearest_int
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


# tanh |x| = 1 - q, q = 2/(e^2a + 1), for a = |x| >= TANH_SMALL (where tanh >= 1/2, so an
# absolute error of q is at most as large in ulps of the result as in ulps of 1/2).
TANH_SMALL = 0.5625
TANH_ONE = 9.125  # from 9.02 on tanh rounds to 1: 2 e^-2a < 2^-25
# e^(2 rho) = 1 + rho Q2(rho): EXP_QUOT5_F32's coefficients c_j 2^(j+1) (exact)
EXP2X_QUOT_F32 = tuple(c * 2.0 ** (j + 1) for j, c in enumerate(C.EXP_QUOT5_F32))
# 1/d ~ RECIP_SEED[0] + RECIP_SEED[1] d on [0.70, 1.70] (relative error 0.095: the linear
# minimax c1 = -2/(ab + (a+b)^2/4), c0 = -c1 (a+b)), then two Newton steps (2^-13.6)
_RA, _RB = 0.70, 1.70
_C1 = -2.0 / (_RA * _RB + (_RA + _RB) ** 2 / 4)
RECIP_SEED = tuple(struct.unpack("<f", struct.pack("<f", c))[0] for c in (-_C1 * (_RA + _RB), _C1))


def tanh_quotient(a):
    """tanh a for TANH_SMALL <= a <= TANH_ONE (k >= 2 below).

    e^2a = 2^k (m + ml): k = round(2a log2(e)), rho = a - k ln2/2 (exact high part, then the
    low part rounded once: |rho| <= ln2/4 + 2^-20), m = 1 + rho Q2(rho) rounded and ml its
    exact rounding error (a second fma on 1 - m, which is exact). With s = 2^-k and
    D = m + ml + s (an exact Fast2Sum pair Dh + Dl: m >= 0.7 > 1/4 >= s),
    q = 2^(1-k) / D; y ~ 1/Dh from a linear seed and two Newton steps (relative 2^-13.6);
    1 + q is rounded to the 2^-23 grid (one0), so q0 = one0 - 1 and 1 - q0 = 2 - one0 are
    exact; the remainder 2^(1-k) - q0 D (two fma, nearly exact) corrects q0 through y:
    tanh a = (1 - q0) - y (2^(1-k) - q0 D), one rounding. Error: that rounding (0.5 ulp),
    e^2a's relative error (about 2^-25, scaled by q <= 1/2), q's Newton residue
    (q (relative error of y)^2, 2^-28) and the seed's and remainder's roundings (below 2^-40).
    """
    t = fma(a, 2.0 * C.LOG2E_F32, SHIFTER)  # the shifter sum of k
    kf = t - SHIFTER
    rho = fma(kf, -0.5 * C.LN2_F32[1], fma(-kf, 0.5 * C.LN2_F32[0], a))  # exact, then once
    qq = horner(rho, EXP2X_QUOT_F32)
    m = fma(rho, qq, 1.0)
    ml = fma(rho, qq, 1.0 - m)  # m's rounding error (1 - m is exact: m in [0.7, 1.42])
    kk = t.bits() << 23  # k 2^23 (the bits of 1.5 2^23 leave the word)
    s = (const(0x3F800000, U32) - kk).view(F32)  # 2^-k
    s2 = (const(0x40000000, U32) - kk).view(F32)  # 2^(1-k)
    dh = m + s
    dl = (s - (dh - m)) + ml  # Fast2Sum: m >= s
    y = fma(dh, RECIP_SEED[1], RECIP_SEED[0])
    for _ in range(2):
        y = fma(y, fma(-dh, y, 1.0), y)
    one0 = fma(y, s2, 1.0)  # 1 + q on the 2^-23 grid
    q0 = one0 - 1.0  # exact
    rem = fma(-q0, dl, fma(-q0, dh, s2))  # 2^(1-k) - q0 D
    return fma(-y, rem, 2.0 - one0)  # 2 - one0 = 1 - q0, exact


def tanh(x):
    """tanh in f32, at most 1 ulp (0.787 over every f32 input, at x = 0x1.13be8ep-1, by
    tests/math_exhaustive.py; the quotient form's worst is 0.604).

    |x| < TANH_SMALL: |x| + |x| z T(z), z = x^2, T a degree-4 minimax fit of
    (tanh a - a)/a^3 (f32 coefficients, 2^-24 relative; the term is at most a tenth of the
    result); above, `tanh_quotient` on min(|x|, TANH_ONE); the sign copied from x; NaN gives
    the canonical NaN (mathlib.CANONICAL_NAN)."""
    a = fabs(x)
    z = a * a
    ps = fma(a * z, horner(z, C.TANH_TAIL4_F32), a)
    big = tanh_quotient(fmin(a, TANH_ONE))
    r = copysign(select(a >= TANH_SMALL, big, ps), x)
    return select(isnan(x), float("nan"), r)
