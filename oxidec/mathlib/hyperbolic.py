"""exp_m1, ln_1p, sinh, cosh, asinh, acosh, atanh, asin, acos (f64; `lite` for f32), built on
the exp and log cores of explog.py and the atan core of trig.py, so they inherit their
double-double accuracy: every result below is one rounding of a double-double good to
about 2^-100 (2^-67 where the log core is involved), i.e. within 1 ulp; the sweep in
tests/test_math_more.py measures it.

exp_m1: e^x = 2^k (1 + p), p = e^r - 1 a double-double from the exp core; e^x - 1 =
(2^k - 1) + 2^k p with 2^k - 1 exact by TwoSum, so no cancellation for any k (k = 0 is
the polynomial itself). Beyond 38 it is e^x; below -40, -1.
ln_1p: 1 + x = u + c exactly (TwoSum), log(1 + x) = log u + c/u (c/u < 2^-52 relative),
log u from the log core; the double-double input form serves asinh, acosh and atanh.
sinh = (E + E/(E+1))/2 and cosh = (e^a + e^-a)/2 with E = e^|x| - 1 as above, in
double-double; beyond 22, e^|x|/2 (scaled in two steps, so it overflows exactly at the
threshold). asinh a = log1p(a + a^2/(1 + sqrt(1 + a^2))), acosh x = log1p(t + sqrt(t(t+2)))
with t = x - 1 (exact), atanh a = log1p(2a/(1 - a))/2: log1p's condition number is at most
1 there, so the double-double arguments keep the bound. asin and acos: atan of a/sqrt(1-a^2)
or of its inverse (whichever is at most 1), 1 - a^2 exact as a double-double, and pi/2 - .,
pi - . in double-double as atan2 does.
"""
from __future__ import annotations

from . import coeffs as C
from .dd import dd_div_pair, fast_two_sum, pow2_f64, scale2, two_prod, two_sum
from .explog import exp_core, log_core, log_total, one_plus
from .ir import F64, const, copysign, fabs, fma, fmin, fmax, isnan, p_and, p_or, select, sqrt
from .trig import _minus, atan_core

INF = float("inf")
NAN = float("nan")


def _em1(a, lite):
    """e^a - 1 as (hi, lo) for -40 <= a <= 38, and the exp core's (k, ph, pl) for the
    caller's large-argument path (a clamped to [-40, 746])."""
    k, ph, pl = exp_core(a, None, lite)
    kp = pow2_f64(fmin(fmax(k.cvt(F64), -60.0), 60.0).cvt(k.ty))
    if lite:
        return fma(kp, ph, kp - 1.0), None, (k, ph, pl)
    c1, c1e = two_sum(kp, const(-1.0, F64))
    eh, el = two_sum(c1, kp * ph)
    return eh, el + (c1e + kp * pl), (k, ph, pl)


def _exp_half(core):
    """e^a / 2 from the exp core (k, ph, pl)."""
    k, ph, pl = core
    return scale2(one_plus(ph, pl), k - 1)


def exp_m1(x, lite=False):
    xc = fmin(fmax(x, -40.0), 746.0)
    xc = select(isnan(x), 0.0, xc)
    eh, el, (k, ph, pl) = _em1(xc, lite)
    r = eh if lite else eh + el
    r = select(x > 38.0, scale2(one_plus(ph, pl), k), r)
    r = select(x < -40.0, -1.0, r)
    r = select(fabs(x) < 2.0 ** -54, x, r)  # x + x^2/2 rounds to x (signed zeros kept)
    return select(isnan(x), x, r)


def log1p_dd(yh, yl, lite):
    """log(1 + yh + yl) for 1 + yh + yl > 0 finite (yl None: 0), before special cases."""
    u, c = two_sum(const(1.0, F64), yh)
    if yl is not None:
        c = c + yl
    ok = p_and(u > 0.0, u < INF)
    us = select(ok, u, 1.0)
    kf, sh, sl = log_core(us, lite)
    corr = c / us
    if lite:
        return fma(kf, C.LN2[0], sh) + corr
    lh, ll = log_total(kf, sh, sl)
    return lh + (ll + corr)


def ln_1p(x, lite=False):
    r = log1p_dd(x, None, lite)
    r = select(x.eq(-1.0), -INF, r)
    r = select(x < -1.0, NAN, r)
    r = select(x.eq(INF), INF, r)
    r = select(x.eq(0.0), x, r)  # -0.0 stays -0.0
    return select(isnan(x), x, r)


def sinh(x, lite=False):
    a = fabs(x)
    big = a > 22.0
    ac = select(isnan(a), 1.0, fmin(a, 746.0))
    eh, el, core = _em1(ac, lite)  # one exp core for both paths
    if lite:
        r = 0.5 * (eh + eh / (eh + 1.0))
    else:
        dh, dl = two_sum(eh, 1.0)
        qh, ql = dd_div_pair(eh, el, dh, dl + el)
        sh, sl = two_sum(eh, qh)
        r = (sh + (sl + (el + ql))) * 0.5
    r = select(big, _exp_half(core), r)
    r = select(a < 2.0 ** -28, a, r)
    r = copysign(r, x)
    return select(isnan(x), x, r)


def cosh(x, lite=False):
    a = fabs(x)
    big = a > 22.0
    ac = select(isnan(a), 1.0, fmin(a, 746.0))
    eh, el, core = _em1(ac, lite)
    if lite:
        ea = eh + 1.0
        r = 0.5 * (ea + 1.0 / ea)
    else:
        h, l0 = two_sum(eh, 1.0)
        lo = l0 + el
        ih = 1.0 / h
        il = (fma(-ih, h, 1.0) - ih * lo) / h
        s, e = two_sum(h, ih)
        r = (s + (e + (lo + il))) * 0.5
    r = select(big, _exp_half(core), r)
    return select(isnan(x), x, r)


def _log_big(a, lite):
    """log(a) + ln 2 for finite a > 0 (asinh, acosh of a > 2^28)."""
    kf, sh, sl = log_core(select(p_and(a > 0.0, a < INF), a, 1.0), lite)
    if lite:
        return fma(kf + 1.0, C.LN2[0], sh)
    lh, ll = log_total(kf + 1.0, sh, sl)
    return lh + ll


def _sqrt_dd(h, lo):
    """sqrt(h + lo) as a double-double (h >= 0)."""
    s = sqrt(h)
    sl = (fma(-s, s, h) + lo) / (s + s)
    return s, select(h.eq(0.0), 0.0, sl)


def asinh(x, lite=False):
    a = fabs(x)
    big = a > 2.0 ** 28
    ac = select(p_or(big, isnan(a)), 1.0, a)
    if lite:
        y = ac + ac * ac / (1.0 + sqrt(1.0 + ac * ac))
        r = log1p_dd(y, None, True)
    else:
        p, pe = two_prod(ac, ac)
        w, we = two_sum(const(1.0, F64), p)
        sh, sl = _sqrt_dd(w, we + pe)
        dh, dl = two_sum(sh, 1.0)
        qh, ql = dd_div_pair(p, pe, dh, dl + sl)
        yh, yl = two_sum(ac, qh)
        r = log1p_dd(yh, yl + ql, False)
    r = select(big, _log_big(a, lite), r)
    r = select(a.eq(INF), INF, r)
    r = select(a < 2.0 ** -28, a, r)
    r = copysign(r, x)
    return select(isnan(x), x, r)


def acosh(x, lite=False):
    big = x > 2.0 ** 28
    xc = select(p_and(x >= 1.0, x <= 2.0 ** 28), x, 1.0)
    t = xc - 1.0  # exact
    if lite:
        r = log1p_dd(t + sqrt(t * (t + 2.0)), None, True)
    else:
        m, me = two_sum(t, 2.0)
        p, pe = two_prod(t, m)
        sh, sl = _sqrt_dd(p, fma(t, me, pe))
        yh, yl = two_sum(t, sh)
        r = log1p_dd(yh, yl + sl, False)
    r = select(big, _log_big(x, lite), r)
    r = select(x.eq(INF), INF, r)
    r = select(x < 1.0, NAN, r)
    return select(isnan(x), x, r)


def atanh(x, lite=False):
    a = fabs(x)
    ac = select(a < 1.0, a, 0.5)
    if lite:
        r = 0.5 * log1p_dd((ac + ac) / (1.0 - ac), None, True)
    else:
        dh, dl = two_sum(const(1.0, F64), -ac)
        qh, ql = dd_div_pair(ac + ac, 0.0, dh, dl)
        r = 0.5 * log1p_dd(qh, ql, False)
    r = select(a.eq(1.0), INF, r)
    r = select(a > 1.0, NAN, r)
    r = select(a < 2.0 ** -28, a, r)
    r = copysign(r, x)
    return select(isnan(x), x, r)


_SQRT1_2 = 0.7071067811865476


def _asin_parts(a, lite):
    """For 0 <= a <= 1: (hi, lo) of atan(q) with q = a/sqrt(1-a^2) or its inverse, and
    whether it is the inverse (a > sqrt(1/2)): asin a = inv ? pi/2 - t : t."""
    inv = a > _SQRT1_2
    if lite:
        s = sqrt(1.0 - a * a)
        q = select(inv, s, a) / select(inv, a, s)
        t, _ = atan_core(q, None, True)
        return t, None, inv
    p, pe = two_prod(a, a)
    w, we = two_sum(const(1.0, F64), -p)
    sh, sl = _sqrt_dd(w, we - pe)
    qh, ql = dd_div_pair(select(inv, sh, a), select(inv, sl, 0.0), select(inv, a, sh),
                         select(inv, 0.0, sl))
    qh, ql = fast_two_sum(qh, ql)
    hi, lo = atan_core(qh, ql, False)
    return hi, lo, inv


def _pio2_minus(hi, lo):
    if lo is None:
        return (C.PIO2[0] - hi) + C.PIO2[1], None
    return _minus(C.PIO2[0], C.PIO2[1], hi, lo)


def _round(hi, lo):
    return hi if lo is None else hi + lo


def asin(x, lite=False):
    a = fabs(x)
    ac = select(a <= 1.0, a, 0.0)
    hi, lo, inv = _asin_parts(ac, lite)
    mh, ml = _pio2_minus(hi, lo)
    r = select(inv, _round(mh, ml), _round(hi, lo))
    r = copysign(r, x)
    r = select(a > 1.0, NAN, r)
    return select(isnan(x), x, r)


def acos(x, lite=False):
    a = fabs(x)
    ac = select(a <= 1.0, a, 0.0)
    hi, lo, inv = _asin_parts(ac, lite)
    # acos a = inv ? t : pi/2 - t; acos(-a) = pi - acos a
    mh, ml = _pio2_minus(hi, lo)
    if lite:
        v = select(inv, hi, mh)
        r = select(x < 0.0, (C.PI[0] - v) + C.PI[1], v)
    else:
        vh, vl = select(inv, hi, mh), select(inv, lo, ml)
        ph, pl = _minus(C.PI[0], C.PI[1], vh, vl)
        r = select(x < 0.0, ph + pl, vh + vl)
    r = select(a > 1.0, NAN, r)
    return select(isnan(x), x, r)
