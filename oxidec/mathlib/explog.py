"""exp, exp2, ln, log2, log10, powf/powi and tanh (f64; `lite` = the cheaper f64 variant that
the f32 routines run).

exp: x = k ln2 + r, |r| <= ln2/2, with k*LN2_HI exact (LN2_HI has 42 bits) so the first
subtraction is exact (Sterbenz) and r is carried as a double-double; e^r - 1 = r + r^2/2 +
r^3 P(r), P a degree-10 minimax polynomial, summed as a double-double; then 2^k in two
exact steps (one rounding, so subnormal results round once and overflow gives inf).

log: x = 2^k m with m in [sqrt(1/2), sqrt(2)) (musl's offset trick), f = m - 1 (exact),
u = 2f/(2+f) as a double-double, log(1+f) = 2 atanh(u/2) = u + u^3/12 + u^5/80 + u^7 Q(u^2)
with the u^3/12 and u^5/80 terms in double-double and Q a degree-8 minimax polynomial: about
2^-67 relative, which pow needs (an error d in y*log x is a relative error d in x^y, and
|y log x| reaches 745).
"""
from __future__ import annotations

from . import coeffs as C
from .dd import (dd_div, f64c, fast_two_sum, horner, pow2_f64, scale2, sign_bit, two_prod,
                 two_sum)
from .ir import (F64, S32, U32, U64, const, copysign, fabs, fma, fmax, fmin, isnan, neu,
                 p_and, p_not, p_or, rint, select, trunc)

INF = float("inf")
NAN = float("nan")


# ---------------------------------------------------------------------------
# exp

def exp_poly(rh, rl, lite: bool):
    """e^(rh + rl) - 1 for |rh| <= ln2/2, as (ph, pl) (pl None when lite)."""
    if lite:
        r = rh if rl is None else rh + rl
        inner = fma(horner(r, C.EXP_TAIL_LITE), r, 0.5)
        return fma(r * r, inner, r), None
    uh, ul = two_prod(rh, rh)
    s = (rh * uh) * horner(rh, C.EXP_TAIL)  # r^3 P(r)
    a, b = fast_two_sum(rh, uh * 0.5)
    lo = b + (fma(ul, 0.5, s) + fma(rl, rh, rl))  # rl e^rh ~ rl (1 + rh)
    return fast_two_sum(a, lo)


def exp_core(xh, xl, lite: bool):
    """e^(xh + xl) = 2^k (1 + ph + pl) for |xh| <= 746 and |xl| <= ulp(xh); k is s32."""
    kf = rint(xh * C.INV_LN2)
    t = fma(-kf, C.LN2_HI42[0], xh)  # exact
    k = kf.cvt(S32)
    if lite:
        r = fma(-kf, C.LN2_HI42[1], t)
        ph, _ = exp_poly(r if xl is None else r + xl, None, True)
        return k, ph, None
    qh, ql = two_prod(kf, C.LN2_HI42[1])
    rh, e = two_sum(t, -qh)
    rl = e - ql if xl is None else (e - ql) + xl
    rh, rl = fast_two_sum(rh, rl)
    ph, pl = exp_poly(rh, rl, False)
    return k, ph, pl


def one_plus(ph, pl):
    """1 + ph + pl with one final rounding (|ph| < 1)."""
    if pl is None:
        return 1.0 + ph
    h, e = fast_two_sum(f64c(1.0), ph)
    return h + (e + pl)


def exp(x, lite=False):
    xc = fmin(fmax(x, -746.0), 710.0)
    xc = select(fabs(x) < 2.0 ** -60, 0.0, xc)  # e^x == 1; keeps tiny products out
    k, ph, pl = exp_core(xc, None, lite)
    r = scale2(one_plus(ph, pl), k)
    return select(isnan(x), x, r)


def exp2(x, lite=False):
    xc = fmin(fmax(x, -1080.0), 1030.0)
    xc = select(fabs(x) < 2.0 ** -60, 0.0, xc)
    kf = rint(xc)
    r = xc - kf  # exact
    if lite:
        ph, pl = exp_poly(r * C.LN2[0], None, True)
    else:
        rh, rl = two_prod(r, C.LN2[0])
        rl = fma(r, C.LN2[1], rl)
        rh, rl = fast_two_sum(rh, rl)
        ph, pl = exp_poly(rh, rl, False)
    out = scale2(one_plus(ph, pl), kf.cvt(S32))
    return select(isnan(x), x, out)


# ---------------------------------------------------------------------------
# log

def log_core(x, lite: bool):
    """For finite x > 0: (k, sh, sl) with log x = k ln2 + sh + sl (k an integral f64)."""
    sub = x < 2.0 ** -1022
    xs = select(sub, x * 2.0 ** 54, x)
    bo = xs.bits() + (0x95F62 << 32)  # 0x3ff00000 - 0x3fe6a09e in the high word
    k = (bo >> 52).cvt(U32).view(S32) - select(sub, const(1023 + 54, S32), const(1023, S32))
    m = ((bo & 0x000FFFFFFFFFFFFF) + (0x3FE6A09E << 32)).view(F64)  # [sqrt(1/2), sqrt(2))
    f = m - 1.0  # exact
    kf = k.cvt(F64)
    if lite:
        u = (f + f) / (f + 2.0)
        v = u * u
        return kf, fma(u * v, horner(v, C.LOG_TAIL_LITE), u), None
    d = f + 2.0
    dl = f - (d - 2.0)  # d + dl == 2 + f exactly
    u = (f + f) / d
    ul = (fma(-u, d, f + f) - u * dl) / d  # u + ul == 2f / (2 + f) to 2^-105
    vh, vl = two_prod(u, u)
    vl = fma(u + u, ul, vl)  # (vh, vl) ~ u^2
    ch, cl = two_prod(u, vh)
    cl = cl + fma(u, vl, ul * vh)  # (ch, cl) ~ u^3
    th, tl = two_prod(ch, C.R12[0])
    tl = tl + fma(ch, C.R12[1], cl * C.R12[0])  # (th, tl) ~ u^3 / 12
    c5h, c5l = two_prod(ch, vh)
    c5l = c5l + fma(ch, vl, cl * vh)  # (c5h, c5l) ~ u^5
    t5h, t5l = two_prod(c5h, C.R80[0])
    t5l = t5l + fma(c5h, C.R80[1], c5l * C.R80[0])  # (t5h, t5l) ~ u^5 / 80
    t7 = (c5h * vh) * horner(vh, C.LOG_TAIL)  # u^7 Q(u^2), < 2^-18 of the log
    a, b = fast_two_sum(th, t5h)
    sh, sl = fast_two_sum(u, a)
    sl = sl + (ul + (b + (tl + (t5l + t7))))
    return kf, sh, sl


def log_total(kf, sh, sl):
    """k ln2 + sh + sl as a double-double (k LN2_HI is exact; for k != 0 it dominates)."""
    kh = kf * C.LN2_HI42[0]
    lh, e = fast_two_sum(kh, sh)
    return lh, e + fma(kf, C.LN2_HI42[1], sl)


def _log_specials(x, r):
    r = select(x.eq(0.0), -INF, r)
    r = select(x < 0.0, NAN, r)
    r = select(x.eq(INF), INF, r)
    return select(isnan(x), x, r)


def _log_input(x):
    ok = p_and(x > 0.0, x < INF)
    return select(ok, x, 1.0)


def ln(x, lite=False):
    kf, sh, sl = log_core(_log_input(x), lite)
    if lite:
        r = fma(kf, C.LN2[0], sh)
    else:
        lh, ll = log_total(kf, sh, sl)
        r = lh + ll
    return _log_specials(x, r)


def log2(x, lite=False):
    kf, sh, sl = log_core(_log_input(x), lite)
    if lite:
        r = fma(sh, C.LOG2E[0], kf)
    else:
        qh, ql = two_prod(sh, C.LOG2E[0])
        ql = ql + fma(sh, C.LOG2E[1], sl * C.LOG2E[0])
        rh, e = fast_two_sum(kf, qh)  # |k| >= 1 > |qh|, or k == 0
        r = rh + (e + ql)
    return _log_specials(x, r)


def log10(x, lite=False):
    kf, sh, sl = log_core(_log_input(x), lite)
    if lite:
        r = fma(kf, C.LN2[0], sh) * C.LOG10E[0]
    else:
        lh, ll = log_total(kf, sh, sl)
        qh, ql = two_prod(lh, C.LOG10E[0])
        r = qh + (ql + fma(lh, C.LOG10E[1], ll * C.LOG10E[0]))
    return _log_specials(x, r)


# ---------------------------------------------------------------------------
# pow

def pow_(x, y, lite=False):
    """x^y with C99/IEEE special cases (Rust's powf; powi passes y = n exactly)."""
    ax = fabs(x)
    ay = fabs(y)
    fin_x = ax < INF
    fin_y = ay < INF
    yint = trunc(y).eq(y)
    half = y * 0.5
    yodd = p_and(p_and(yint, neu(trunc(half), half)), ay < 2.0 ** 53)
    main = p_and(p_and(ax > 0.0, fin_x), p_and(fin_y, ay > 0.0))
    axs = select(main, ax, 1.0)
    ys = select(main, y, 0.0)
    kf, sh, sl = log_core(axs, lite)
    if lite:
        t = ys * fma(kf, C.LN2[0], sh)
        k, ph, pl = exp_core(fmin(fmax(t, -746.0), 710.0), None, True)
    else:
        lh, ll = log_total(kf, sh, sl)
        th = ys * lh
        tl = fma(ys, lh, -th) + ys * ll
        inside = p_and(th < 710.0, th > -746.0)
        k, ph, pl = exp_core(fmin(fmax(th, -746.0), 710.0), select(inside, tl, 0.0), False)
    r = scale2(one_plus(ph, pl), k)
    neg = sign_bit(x)
    flip = p_and(neg, yodd)
    r = select(flip, -r, r)
    r = select(p_and(p_and(x < 0.0, fin_x), p_not(yint)), NAN, r)
    zero_x = ax.eq(0.0)
    # x = +-0 or +-inf, y finite: 0 or inf by the sign of y, negative for an odd y
    mag = select(p_xor(zero_x, y < 0.0), 0.0, INF)
    mag = select(flip, -mag, mag)
    r = select(p_or(zero_x, ax.eq(INF)), mag, r)
    # y = +-inf: 1 when |x| == 1, else 0 or inf
    lt1 = ax < 1.0
    inf_mag = select(p_xor(lt1, y > 0.0), INF, 0.0)
    inf_mag = select(ax.eq(1.0), 1.0, inf_mag)
    r = select(ay.eq(INF), inf_mag, r)
    r = select(p_or(isnan(x), isnan(y)), NAN, r)
    return select(p_or(y.eq(0.0), x.eq(1.0)), 1.0, r)


def p_xor(a, b):
    return a.b.op("xor", a.ty, (a, b))


def powi(x, n, lite=False):
    return pow_(x, n.cvt(F64), lite)


# ---------------------------------------------------------------------------
# tanh

def tanh(x, lite=False):
    """tanh |x| = em / (em + 2) with em = e^(2|x|) - 1 from the exp core (no cancellation:
    for 2|x| <= ln2/2 it is the polynomial itself), in double-double."""
    a = fabs(x)
    tiny = a < 2.0 ** -28
    big = p_not(a < 22.0)  # tanh = 1 to double precision (and inf, NaN)
    ac = select(p_or(tiny, big), 0.5, a)
    k, ph, pl = exp_core(ac + ac, None, lite)
    kp = pow2_f64(k)
    c1 = kp - 1.0  # exact for k <= 53
    if lite:
        em = fma(kp, ph, c1)
        t = em / (em + 2.0)
    else:
        eh, el = two_sum(c1, kp * ph)
        el = fma(kp, pl, el)
        dh, dl = two_sum(eh, 2.0)
        t = dd_div(eh, el, dh, dl + el)
    r = select(tiny, a, t)
    r = select(big, 1.0, r)
    r = copysign(r, x)
    return select(isnan(x), x, r)
