"""exp and exp2 computed in f32 (the f32 routines `exp`/`exp2`; the f64-based correctly
rounded ones stay available as `exp_exact`/`exp2_exact`).

exp: k = the integer nearest x log2(e) (`nearest_int`), rh = x - k LN2_F32[0] (one fma,
exact: LN2_F32[0] has 24 bits, so the difference is a multiple of min(ulp(x), 2^-24) below 1/2
in magnitude), r = rh - k LN2_F32[1] rounded once (ln2 = LN2_F32[0] + LN2_F32[1] to 2^-48),
|r| <= ln2/2 + 2^-20; e^r = 1 + r Q(r), Q a degree-6 minimax fit of (e^r - 1)/r (f32
coefficients, 2^-28.8 relative), by Horner in fma: 7 fma (`exp_poly`).
exp2: k = the integer nearest x, r = x - k exact (|r| <= 1/2), 2^r = 1 + r Q(r) with Q a
degree-6 fit of (2^r - 1)/r (`exp2_poly`): no reduction error, so only the two roundings
of the Horner scheme's last steps remain.
The error of exp's core: the final fma's rounding (0.5 ulp), the rounding of r (up to 2^-26
absolute, about 0.2 ulp of a result in [0.7, 1)) and of Q's value (2^-24 |r|, about 0.17
ulp): at most 0.874 ulp over every f32 input (at x = -0x1.7905dep+2; exp2: 0.868, at a
subnormal result), measured by tests/math_exhaustive.py and pinned by
tests/test_math_native_bounds.py; the Fast2Sum core gave 0.76 in 8 more instructions.
Then 2^k in two steps (`scale2_f32`): the first exact, the second rounding once, so
subnormal results round once, overflow gives inf and results below half the smallest
subnormal give 0. Arguments with a normal result take a fast path with the same bits (no
clamp, no NaN test, 2^k added to the exponent field); the rest branch to the general
routine. Only f32 primitives (fma.rn, add.rn, mul.rn, integer shifts): the GPU runs no f64
op. Measured error: the table in mathlib/__init__.py.
"""
from __future__ import annotations

from . import coeffs as C
from .dd import horner
from .ir import F32, S32, If, Var, fabs, fma, fmax, fmin, isnan, pow2, select


def scale2_f32(y, k):
    """y * 2^k for y in [0.5, 2) and an s32 k in [-152, 130]: the first product is exact
    (normal), the second rounds once (to the subnormal grid, or to inf)."""
    k1 = k >> 1
    k2 = k - k1
    return (y * pow2(k1, F32)) * pow2(k2, F32)


def scale2_f32_of_sum(y, t):
    """scale2_f32(y, k) for the k whose shifter sum (`nearest_int`) is t: t's bits shifted
    left by 23 are k 2^23 (those of 1.5 2^23 leave the word), and k1 = k >> 1, k2 = k - k1
    then come as exponent fields directly: 5 integer ops (ptxas: SHL, SHF, LOP, IADD, IADD3)
    where k, k1, k2 and two `pow2` cost 6 to 8. The same two products, so the same bits."""
    kk = (t.bits() << 23).view(S32)  # k 2^23, exact: |k| <= 152
    k1 = (kk >> 1) & -(1 << 23)  # (k >> 1) 2^23: the arithmetic shift floors, as k >> 1
    s1 = (k1 + 0x3F800000).view(F32)  # 2^k1
    s2 = (kk - k1 + 0x3F800000).view(F32)  # 2^(k - k1)
    return (y * s1) * s2


SHIFTER = 12582912.0  # 1.5 * 2^23: the f32s in [2^23, 2^24) are the integers


def nearest_int(a, b=None):
    """(kf, k): the integer nearest a*b (a, b f32; the exact product), as f32 and s32, for
    |a b| < 2^22. One fma and a subtraction instead of cvt.rni and cvt.s32 (conversions run
    at a quarter of the fma rate): a*b + 1.5 2^23 rounds to an integer, whose bits are
    those of 1.5 2^23 plus k."""
    t = a + SHIFTER if b is None else fma(a, b, SHIFTER)
    k = (t.bits() - 0x4B400000).view(S32)
    return t - SHIFTER, k  # exact


def exp_poly(r):
    """e^r for |r| <= ln2/2 + 2^-20, in [0.7, 1.42]: 1 + r Q(r) (7 fma)."""
    return fma(r, horner(r, C.EXP_QUOT_F32), 1.0)


def exp2_poly(r):
    """2^r for |r| <= 1/2 (exact), in [0.7, 1.42]: 1 + r Q(r), Q a degree-6 fit of
    (2^r - 1)/r (7 fma)."""
    return fma(r, horner(r, C.EXP2_QUOT_F32), 1.0)


def exp_reduce(x):
    """(t, r): the shifter sum of k = round(x log2(e)) and r = x - k ln2 rounded once."""
    t = fma(x, C.LOG2E_F32, SHIFTER)  # nearest_int's sum
    kf = t - SHIFTER  # exact
    rh = fma(-kf, C.LN2_F32[0], x)  # exact
    return t, fma(kf, -C.LN2_F32[1], rh)


# exp and exp2 return the canonical NaN themselves (mathlib.CANONICAL_NAN): nothing else
# in them makes a NaN (the clamped argument is finite), so the caller's canonicalising
# select would test a second time.
#
# Each has a fast path for the arguments whose result is a normal number (|x| <= 87 for exp,
# <= 125 for exp2; a NaN fails the test): there the clamp is a no-op, the two products of
# `scale2_f32` are exact, so y 2^k is y's bits plus k 2^23 (one integer addition of the
# shifter sum's bits shifted left by 23, which are k 2^23), and no NaN test is needed. The
# other arguments (NaN, infinities, overflow, subnormal and zero results) branch to the
# general routine. Same bits as the general routine on every input (tests/test_exp_scaling.py):
# 11 SASS instructions fewer on the common path (clamp 2, NaN test 3, scaling 6 -> test 2,
# scaling 2).

EXP_FAST_LIMIT = 87.0  # |x| <= 87: k in [-126, 126], and k = -126 only with y >= 1
EXP2_FAST_LIMIT = 125.0  # |x| <= 125: k in [-125, 125]


def _fast_or_general(x, limit, t, y, general):
    out = Var((y.bits() + (t.bits() << 23)).view(F32))  # y 2^k, exact: a normal result
    with If(~(fabs(x) <= limit)):
        out.set(general(x))
    return out.get()


def exp_general(x):
    xc = fmin(fmax(x, -104.0), 89.0)  # e^-104 < 2^-150 rounds to 0; e^89 overflows
    t, r = exp_reduce(xc)
    out = scale2_f32_of_sum(exp_poly(r), t)
    return select(isnan(x), float("nan"), out)


def exp(x):
    t, r = exp_reduce(x)  # as exp_general without its clamp
    return _fast_or_general(x, EXP_FAST_LIMIT, t, exp_poly(r), exp_general)


def exp2_general(x):
    xc = fmin(fmax(x, -151.0), 129.0)
    t = xc + SHIFTER  # the shifter sum of k, the integer nearest xc
    out = scale2_f32_of_sum(exp2_poly(xc - (t - SHIFTER)), t)  # r = xc - k exact
    return select(isnan(x), float("nan"), out)


def exp2(x):
    t = x + SHIFTER  # as exp2_general without its clamp
    return _fast_or_general(x, EXP2_FAST_LIMIT, t, exp2_poly(x - (t - SHIFTER)), exp2_general)
