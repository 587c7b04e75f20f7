"""cbrt and hypot (f64; `lite` for the f32 routines, which run in f64).

cbrt: |x| = 2^(3q + rem) m, m in [1, 2); a degree-4 minimax seed for m^(1/3) (2^-16.7)
times 2^(rem/3), one Newton step (2^-33), then a last Newton step whose residual y^3 - m
is computed exactly (fma and a double-double square): the error before the final rounding
is about 2^-65. Subnormals are scaled by 2^54 first; the result is scaled back exactly.

hypot: the larger magnitude a and the smaller b are scaled by a power of two into a safe
range, a^2 + b^2 is formed as a double-double, and its square root gets one correction step
(r + (s - r^2)/(2r)) before being scaled back. hypot(+-inf, NaN) is inf (IEEE 754).
"""
from __future__ import annotations

from . import coeffs as C
from .dd import exponent_f64, fast_two_sum, horner, pow2_f64, two_prod
from .ir import (F64, S32, const, copysign, fabs, floor, fma, fmax, fmin, isnan, p_and,
                 p_not, p_or, select, sqrt)

INF = float("inf")
NAN = float("nan")


def cbrt(x, lite=False):
    a = fabs(x)
    special = p_or(a.eq(0.0), p_not(a < INF))  # 0, inf, NaN: x itself
    s = select(special, 1.0, a)
    sub = s < 2.0 ** -1022
    s = select(sub, s * 2.0 ** 54, s)
    e = exponent_f64(s) - select(sub, const(1023 + 54, S32), const(1023, S32))
    m = ((s.bits() & 0x000FFFFFFFFFFFFF) | (1023 << 52)).view(F64)
    ef = e.cvt(F64)
    qf = floor(ef / 3.0)  # exact: e/3 is never within rounding of another integer
    rem = ef - qf * 3.0
    one, two = rem.eq(1.0), rem.eq(2.0)
    mm = m * select(one, 2.0, select(two, 4.0, 1.0))  # in [1, 8)
    y = horner(m, C.CBRT_SEED) * select(one, C.CBRT2, select(two, C.CBRT4, 1.0))
    y2 = y * y
    y = y - (y2 * y - mm) / (y2 * 3.0)
    if not lite:
        y2h, y2l = two_prod(y, y)
        res = fma(y, y2h, -mm) + y * y2l  # y^3 - mm, to 2^-100 relative
        y = y - res / (y2h * 3.0)
    r = copysign(y * pow2_f64(qf.cvt(S32)), x)
    return select(special, x, r)


def hypot(x, y, lite=False):
    ax, ay = fabs(x), fabs(y)
    if lite:  # f32 inputs: the squares are exact in f64 and the sum cannot overflow
        r = sqrt(fma(ax, ax, ay * ay))
    else:
        big = fmax(ax, ay)
        small = fmin(ax, ay)
        ok = p_and(big > 0.0, big < INF)
        a = select(ok, big, 1.0)
        b = select(ok, small, 0.0)
        up = a < 2.0 ** -450
        down = a > 2.0 ** 450
        sc = select(down, 2.0 ** -600, select(up, 2.0 ** 600, 1.0))
        a = a * sc
        b = b * sc
        b = select(b < a * 2.0 ** -60, 0.0, b)  # (b/a)^2 < 2^-120: no contribution
        ph, pl = two_prod(a, a)
        qh, ql = two_prod(b, b)
        sh, sl = fast_two_sum(ph, qh)
        sl = sl + (pl + ql)
        r = sqrt(sh)
        r = r + (fma(-r, r, sh) + sl) / (r + r)
        r = r * select(down, 2.0 ** 600, select(up, 2.0 ** -600, 1.0))
        r = select(big.eq(0.0), 0.0, r)
    r = select(p_or(isnan(x), isnan(y)), NAN, r)
    return select(p_or(ax.eq(INF), ay.eq(INF)), INF, r)
