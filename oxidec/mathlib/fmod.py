"""fmod: Rust's `%` on floats, exact (the result is always representable, so there is no
rounding to get right, only a remainder to compute without losing bits).

|x| = mx 2^(ex-1075), |y| = my 2^(ey-1075) with integer significands mx, my < 2^53 (the
implicit bit added for normal numbers, the subnormal exponent field counted as 1). For
|x| >= |y|, ex >= ey and

    fmod(|x|, |y|) = ((mx 2^(ex-ey)) mod my) 2^(ey-1075)

computed as long division: r = mx mod my, then while d = ex - ey > 0, shift s = min(d, 52)
bits in: r = (r 2^s) mod my. One step of `r <- (r 2^s) mod my` for r < 2^53, s <= 52 with
q * my <= r 2^s < 2^53 2^s needs no 128-bit arithmetic: the quotient estimate
q = trunc(RN(r 2^s / my)) (every operand exact in f64, one rounding) is within one of the
true quotient while it is below 2^53, so the exact remainder r 2^s - q my lies in [-my, 2my):
it is computed in wrapping u64 arithmetic (exact mod 2^64, and the true value fits in an
s64) and brought into [0, my) by one conditional add or subtract. The quotient bound holds
for the first step (s = 0: r 2^0 / my <= mx < 2^53) and for the others (r < my, so the
quotient is below 2^s <= 2^52).

The trip count is ceil(d / 52): at most 41 for f64 (d <= 2045 + 52), at most 6 for f32
inputs, which run this routine on their exact f64 values (the f64 remainder of two f32
values is representable in f32, so the final conversion is exact too).

The result r 2^(ey-1075) is a multiple of y's quantum below |y|, so it is representable;
it is formed with one or two exact scalings by powers of two, and takes x's sign (a zero
result included, as C's fmod). Special cases: NaN operands, an infinite x or a zero y give
NaN; |x| < |y| (an infinite y, a zero x) gives x itself.
"""
from __future__ import annotations

from .dd import exponent_f64, pow2_f64
from .ir import (F64, S32, S64, U32, U64, If, Loop, Var, any_of, const, copysign, fabs, fmax,
                 fmin, isnan, p_and, p_not, select)

INF = float("inf")
NAN = float("nan")
FRACTION = (1 << 52) - 1
IMPLICIT = 1 << 52
STEP = 52  # bits shifted into the remainder per long-division step


def fmod(x, y, lite=False):
    ax, ay = fabs(x), fabs(y)
    invalid = any_of(isnan(x), isnan(y), ax.eq(INF), ay.eq(0.0))
    divide = p_and(p_not(invalid), ax >= ay)
    out = Var(x)
    rem = Var(const(0, U64))  # the remainder's significand
    d = Var(const(0, S32))  # exponent bits still to shift in
    with If(divide):
        mx, ex = _significand(ax)
        my, ey = _significand(ay)
        myf = my.cvt(F64)
        rem.set(_reduce_step(mx, mx.cvt(F64), my, myf, None))
        d.set(ex - ey)
        with If(d.get() > 0):
            with Loop() as loop:
                left = d.get()
                s = fmin(left, STEP)
                r = rem.get()
                rem.set(_reduce_step(r, r.cvt(F64) * pow2_f64(s), my, myf, s.cvt(U32)))
                d.set(left - s)
                loop.again(left > STEP)
        out.set(copysign(_scale(rem.get().cvt(F64), ey), x))
    return select(invalid, NAN, out.get())


def _significand(a):
    """(integer significand as u64, exponent field as s32, 1 for subnormals) of |a| > 0."""
    e = exponent_f64(a)
    implicit = select(e.ne(0), const(IMPLICIT, U64), const(0, U64))
    return (a.bits() & FRACTION) | implicit, fmax(e, 1)


def _reduce_step(r, scaled, my, myf, s):
    """(r 2^s) mod my, given `scaled` = r 2^s as an exact f64 (s None: no shift)."""
    q = (scaled / myf).cvt(U64, "rz")
    shifted = r if s is None else r << s
    t = (shifted - q * my).view(S64)  # exact: the true value lies in [-my, 2my)
    mys = my.view(S64)
    t = select(t < 0, t + mys, t)
    t = select(t >= mys, t - mys, t)
    return t.view(U64)


def _scale(rf, ey):
    """rf 2^(ey-1075), exact (the result is representable): one scaling by a normal power of
    two, and for ey <= 54 (a result that may be subnormal) a second exact one by 2^-54."""
    low = ey <= 54
    k = select(low, ey - (1075 - 54), ey - 1075)
    out = rf * pow2_f64(k)
    return select(low, out * 2.0 ** -54, out)

