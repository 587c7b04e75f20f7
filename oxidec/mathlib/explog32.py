"""exp and exp2 computed in f32 (the f32 routines `exp`/`exp2`; the f64-based correctly
rounded ones stay available as `exp_exact`/`exp2_exact`).

Both reduce to e^(rh + rl) with |rh| <= ln2/2 and |rl| tiny, times 2^k:
exp: k = the integer nearest x log2(e) (`nearest_int`), rh = x - k LN2_F32[0] (one fma, exact: LN2_F32[0] has 24
bits, so the difference is a multiple of min(ulp(x), 2^-24) below 1/2 in magnitude),
rl = -k LN2_F32[1] (ln2 = LN2_F32[0] + LN2_F32[1] to 2^-48).
exp2: k = the integer nearest x, r = x - k (exact, |r| <= 1/2), rh + rl = r ln2 (an exact product split
with fma, plus r LN2_F32[1]).
The core: h = 1 + rh rounded and its exact error e (Fast2Sum), then
e^(rh + rl) = h + (e + rl + r^2 P(r)), r = rh + rl, P a degree-5 minimax fit of
(e^r - 1 - r)/r^2 (f32 coefficients, 2^-26.5 relative; it enters scaled by r^2 <= 0.12),
so the one significant rounding is the last addition: about 0.5 ulp plus a few hundredths.
Then 2^k in two steps (`scale2_f32`): the first exact, the second rounding once, so
subnormal results round once, overflow gives inf and results below half the smallest
subnormal give 0. Arguments with a normal result take a fast path with the same bits (no
clamp, no NaN test, 2^k added to the exponent field); the rest branch to the general routine. Only f32 primitives (fma.rn, add.rn, mul.rn, cvt.rni, integer shifts):
the GPU runs no f64 op. Measured error: the table in mathlib/__init__.py.
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


def exp_core(rh, rl):
    """e^(rh + rl) for |rh| <= ln2/2 + 2^-20 and |rl| <= 2^-20, in [0.7, 1.42]."""
    h = 1.0 + rh
    e = rh - (h - 1.0)  # exact: h - 1 is exact (Sterbenz), and so is the error of 1 + rh
    r = rh + rl
    t = fma(r * r, horner(r, C.EXP_TAIL_F32), e + rl)
    return h + t


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
    t = fma(xc, C.LOG2E_F32, SHIFTER)  # nearest_int's sum, of k = round(xc log2(e))
    kf = t - SHIFTER  # exact
    rh = fma(-kf, C.LN2_F32[0], xc)  # exact
    rl = kf * -C.LN2_F32[1]
    out = scale2_f32_of_sum(exp_core(rh, rl), t)
    return select(isnan(x), float("nan"), out)


def exp(x):
    t = fma(x, C.LOG2E_F32, SHIFTER)  # as exp_general without its clamp
    kf = t - SHIFTER
    rh = fma(-kf, C.LN2_F32[0], x)
    rl = kf * -C.LN2_F32[1]
    return _fast_or_general(x, EXP_FAST_LIMIT, t, exp_core(rh, rl), exp_general)


def exp2_general(x):
    xc = fmin(fmax(x, -151.0), 129.0)
    t = xc + SHIFTER
    kf = t - SHIFTER  # exact: the integer nearest xc
    r = xc - kf  # exact
    rh = r * C.LN2_F32[0]
    rl = fma(r, C.LN2_F32[1], fma(r, C.LN2_F32[0], -rh))  # the product's exact error + tail
    out = scale2_f32_of_sum(exp_core(rh, rl), t)
    return select(isnan(x), float("nan"), out)


def exp2(x):
    t = x + SHIFTER  # as exp2_general without its clamp
    kf = t - SHIFTER
    r = x - kf
    rh = r * C.LN2_F32[0]
    rl = fma(r, C.LN2_F32[1], fma(r, C.LN2_F32[0], -rh))
    return _fast_or_general(x, EXP2_FAST_LIMIT, t, exp_core(rh, rl), exp2_general)
