"""sin, cos, tan (argument reduction: Cody-Waite below 2^26, Payne-Hanek above), atan, atan2.

Cody-Waite: k = rint(x 2/pi), pi/2 = P1 + P2 + P3 + P4 where P1 has 27 bits and P2 at most 25
(so k*P1 and k*P2 are exact for |k| < 2^26 and x - k P1 - k P2 is exact), P3 and P4 full
doubles taken as exact products: the reduced argument r = rh + rl is good to about 2^-130
absolute, more than the closest approach of a double below 2^26 to a multiple of pi/2 needs.

Payne-Hanek (|x| >= 2^26): x = m 2^E with a 53-bit integer m; only the bits of 2/pi from
index E-1 on matter mod 4, so 192 of them, taken at that bit offset from a 42-word table
(two zero words of padding, then 1280 bits of 2/pi) by funnel shifts, are multiplied by m
exactly in 32-bit limbs. The product has its binary point at bit 190: two bits of quadrant
and 126 bits of fraction, centred to [-1/2, 1/2) and converted to a double-double, times
pi/2. The fraction is good to 2^-126 absolute, against 2^-61 for the worst double.

sin/cos of r: r + r^3 S(r^2) and 1 - r^2/2 + r^4 C(r^2) (degree-6 minimax), both summed as
double-doubles (the cos head as in fdlibm's __kernel_cos); tan is their double-double
quotient, -cos/sin in odd quadrants.

atan: |x| > 1 uses pi/2 - atan(1/|x|) (the reciprocal carried as a double-double); then
t in [0, 1] is reduced with c = j/8, j = rint(8t): atan t = atan c + atan((t-c)/(1+tc)),
atan c from a table of double-doubles, the small argument (|z| <= 1/16) by a degree-4 odd
polynomial. atan2 divides the smaller of |y|, |x| by the larger (a double-double quotient)
and applies pi/2 - . and pi - . exactly in double-double, so every quadrant keeps its
accuracy; signed zeros, infinities and NaN as IEEE 754 (and Rust) specify.
"""
from __future__ import annotations

from . import coeffs as C
from .dd import dd_div, dd_div_pair, fast_two_sum, horner, sign_bit, two_prod, two_sum
from .ir import (F64, S32, U32, U64, If, Table, Var, const, copysign, fabs, fma, fmin,
                 isnan, load, mul_wide, p_and, p_not, p_or, rint, select)

INF = float("inf")
NAN = float("nan")
TWO26 = 2.0 ** 26

TWO_OVER_PI_TABLE = Table("two_over_pi", (0, 0) + C.TWO_OVER_PI)


def _f64_words(v: float) -> tuple[int, int]:
    import struct
    u = struct.unpack("<Q", struct.pack("<d", v))[0]
    return u >> 32, u & 0xFFFFFFFF


ATAN_TABLE = Table("atan_j8", tuple(w for hi, lo in C.ATAN_J8
                                    for w in (*_f64_words(hi), *_f64_words(lo))))


def _load_f64(table: Table, index) -> object:
    hi = load(table, index)
    lo = load(table, index + 1)
    return ((hi.cvt(U64) << 32) | lo.cvt(U64)).view(F64)


# ---------------------------------------------------------------------------
# Argument reduction

def payne_hanek(x):
    """For finite |x| >= 2^26: (q, rh, rl) with x = q pi/2 + rh + rl (mod 2 pi)."""
    bits = fabs(x).bits()
    eb = (bits >> 52).cvt(U32)  # biased exponent
    m = (bits & 0x000FFFFFFFFFFFFF) | (1 << 52)
    # first needed bit of 2/pi: index E - 1 with E = eb - 1075; table bit j = index + 63
    j0 = eb - 1013
    w = j0 >> 5
    o = j0 & 31
    words = [load(TWO_OVER_PI_TABLE, w + i) for i in range(7)]
    limbs = [(words[i] << o) | (words[i + 1] >> (32 - o)) for i in range(6)]
    a = limbs[::-1]  # least significant first
    ms = [m.cvt(U32), (m >> 32).cvt(U32)]
    prods = {(i, j): mul_wide(ms[i], a[j]) for i in range(2) for j in range(6)}
    r = []
    carry = const(0, U64)
    for n in range(8):
        acc = carry
        for i in range(2):
            if (i, n - i) in prods:
                acc = acc + (prods[i, n - i] & 0xFFFFFFFF)
            if (i, n - 1 - i) in prods:
                acc = acc + (prods[i, n - 1 - i] >> 32)
        r.append(acc.cvt(U32))
        carry = acc >> 32
    # bits 191..190: quadrant; 189..64: the fraction
    c3 = r[5] & 0x3FFFFFFF
    top = c3 >> 29
    q = ((r[5] >> 30) + top).view(S32)
    c3s = c3.view(S32) - select(top.eq(1), const(1 << 30, S32), const(0, S32))
    d3 = c3s.cvt(F64) * 2.0 ** -30
    d2 = r[4].cvt(F64) * 2.0 ** -62
    d1 = r[3].cvt(F64) * 2.0 ** -94
    d0 = r[2].cvt(F64) * 2.0 ** -126
    h, lo = two_sum(d3, d2)
    h, lo2 = two_sum(h, d1)
    fh, fl = fast_two_sum(h, lo + (lo2 + d0))
    rh = fh * C.PIO2[0]
    rl = fma(fh, C.PIO2[0], -rh) + fma(fh, C.PIO2[1], fl * C.PIO2[0])
    rh, rl = fast_two_sum(rh, rl)
    neg = x < 0.0
    return select(neg, -q, q), select(neg, -rh, rh), select(neg, -rl, rl)


def reduce_pio2(x, lite: bool):
    """For finite x: (q, rh, rl) with x = q pi/2 + rh + rl, |rh| <~ pi/4 (q is s32)."""
    huge = fabs(x) >= TWO26
    xc = select(huge, 0.0, x)
    kf = rint(xc * C.TWO_OVER_PI_D)
    p1, p2, p3, p4 = C.PIO2_CW
    t1 = fma(-kf, p1, xc)  # exact
    t2 = fma(-kf, p2, t1)  # exact
    if lite:
        rh, rl = fma(-kf, p3, t2), const(0.0, F64)
    else:
        ph, pl = two_prod(kf, p3)
        s, e = two_sum(t2, -ph)
        rh, rl = fast_two_sum(s, fma(-kf, p4, e - pl))
    q_v, rh_v, rl_v = Var(kf.cvt(S32)), Var(rh), Var(rl)
    with If(huge):
        q2, rh2, rl2 = payne_hanek(x)
        q_v.set(q2)
        rh_v.set(rh2)
        rl_v.set(rl2)
    return q_v.get(), rh_v.get(), rl_v.get()


def sincos_dd(rh, rl, lite: bool):
    """((sh, sl), (ch, cl)): sin and cos of rh + rl as double-doubles (lo None when lite)."""
    if lite:
        z = rh * rh
        s = fma(rh * z, horner(z, C.SIN_TAIL_LITE), rh) + rl
        c = fma(z * z, horner(z, C.COS_TAIL_LITE), fma(z, -0.5, 1.0)) - rh * rl
        return (s, None), (c, None)
    return sincos_pair(rh, rl, C.SIN_TAIL, C.COS_TAIL)


def sincos_pair(rh, rl, sin_tail, cos_tail):
    """((sh, sl), (ch, cl)): sin and cos of the reduced argument rh + rl as unevaluated pairs
    in rh's precision, with the polynomial tails `sin_tail` / `cos_tail` fitted for it (f64
    here, f32 in trig32.py)."""
    z = rh * rh
    tail = fma(rh * z, horner(z, sin_tail), fma(rl, z * -0.5, rl))
    s = fast_two_sum(rh, tail)
    zl = fma(rh, rh, -z)
    hz = z * 0.5
    w = 1.0 - hz
    corr = ((1.0 - w) - hz) + fma(z * z, horner(z, cos_tail), -fma(zl, 0.5, rh * rl))
    c = fast_two_sum(w, corr)
    return s, c


def _round(pair):
    hi, lo = pair
    return hi if lo is None else hi + lo


def _trig_input(x):
    ax = fabs(x)
    tiny = ax < 2.0 ** -27
    fin = ax < INF
    return tiny, fin, select(p_or(tiny, p_not(fin)), 0.0, x)


def _sin_quadrant(q, s, c):
    odd = (q & 1).eq(1)
    v = select(odd, _round(c), _round(s))
    return select((q & 2).eq(2), -v, v)


def sin(x, lite=False):
    tiny, fin, xs = _trig_input(x)
    q, rh, rl = reduce_pio2(xs, lite)
    s, c = sincos_dd(rh, rl, lite)
    v = _sin_quadrant(q, s, c)
    v = select(tiny, x, v)
    return select(fin, v, NAN)


def cos(x, lite=False):
    tiny, fin, xs = _trig_input(x)
    q, rh, rl = reduce_pio2(xs, lite)
    s, c = sincos_dd(rh, rl, lite)
    v = _sin_quadrant(q + 1, s, c)  # cos x = sin(x + pi/2)
    v = select(tiny, 1.0, v)
    return select(fin, v, NAN)


def tan(x, lite=False):
    tiny, fin, xs = _trig_input(x)
    q, rh, rl = reduce_pio2(xs, lite)
    (sh, sl), (ch, cl) = sincos_dd(rh, rl, lite)
    odd = (q & 1).eq(1)
    nh, dh = select(odd, ch, sh), select(odd, sh, ch)
    if lite:
        t = nh / dh
    else:
        t = dd_div(nh, select(odd, cl, sl), dh, select(odd, sl, cl))
    v = select(odd, -t, t)
    v = select(tiny, x, v)
    return select(fin, v, NAN)


# ---------------------------------------------------------------------------
# atan, atan2

def atan_core(th, tl, lite: bool):
    """atan(th + tl) for 0 <= th <= 1, as (hi, lo) (lo None when lite)."""
    small = th < 2.0 ** -27  # atan t == t to well below an ulp
    ts = select(small, 0.5, th)
    jf = rint(ts * 8.0)
    j = jf.cvt(U32)
    c = jf * 0.125
    n0 = ts - c  # exact
    if lite:
        z = n0 / fma(ts, c, 1.0)
        v = z * z
        out = _load_f64(ATAN_TABLE, j * 4) + fma(z * v, horner(v, C.ATAN_TAIL_LITE), z)
        return select(small, th, out), None
    tls = select(small, 0.0, tl)
    nh, nl = two_sum(n0, tls)
    p, pe = two_prod(ts, c)
    dh, dl = fast_two_sum(const(1.0, F64), p)
    dl = dl + fma(tls, c, pe)
    zh, zl = dd_div_pair(nh, nl, dh, dl)
    v = zh * zh
    tail = (zh * v) * horner(v, C.ATAN_TAIL)
    ah = _load_f64(ATAN_TABLE, j * 4)
    al = _load_f64(ATAN_TABLE, j * 4 + 2)
    s, e = fast_two_sum(ah, zh)
    hi, lo = fast_two_sum(s, e + (al + (fma(-zl, v, zl) + tail)))
    return select(small, th, hi), select(small, tl, lo)


def _minus(ch, cl, h, lo):
    """(ch + cl) - (h + lo) as a double-double (lo None: a double)."""
    s, e = two_sum(ch, -h)
    return s, e + (cl if lo is None else cl - lo)


def atan(x, lite=False):
    a = fabs(x)
    tiny = a < 2.0 ** -27
    inv = a > 1.0
    ac = select(p_or(tiny, isnan(x)), 0.5, fmin(a, 2.0 ** 60))
    rh = 1.0 / ac
    if lite:
        t, _ = atan_core(select(inv, rh, ac), None, True)
        v = select(inv, (C.PIO2[0] - t) + C.PIO2[1], t)
    else:
        rl = fma(-rh, ac, 1.0) / ac
        hi, lo = atan_core(select(inv, rh, ac), select(inv, rl, 0.0), False)
        ih, il = _minus(C.PIO2[0], C.PIO2[1], hi, lo)
        v = select(inv, ih + il, hi + lo)
    v = copysign(v, x)
    v = select(tiny, x, v)
    return select(isnan(x), x, v)


def atan2(y, x, lite=False):
    """atan2(y, x) = the angle of (x, y); y is the receiver in Rust (`y.atan2(x)`)."""
    ay, ax = fabs(y), fabs(x)
    swap = ay > ax
    num, den = select(swap, ax, ay), select(swap, ay, ax)  # num <= den
    ok = p_and(p_and(den > 0.0, den < INF), num.eq(num))
    n = select(ok, num, 0.0)
    d = select(ok, den, 1.0)
    scale = d < 2.0 ** -900  # keep the quotient's residual exact
    n = select(scale, n * 2.0 ** 600, n)
    d = select(scale, d * 2.0 ** 600, d)
    th = n / d
    neg = sign_bit(x)
    if lite:
        t, _ = atan_core(th, None, True)
        t = select(swap, (C.PIO2[0] - t) + C.PIO2[1], t)
        v = select(neg, (C.PI[0] - t) + C.PI[1], t)
    else:
        tl = fma(-th, d, n) / d
        hi, lo = atan_core(th, tl, False)
        sh, sl = _minus(C.PIO2[0], C.PIO2[1], hi, lo)
        hi, lo = select(swap, sh, hi), select(swap, sl, lo)
        ph, pl = _minus(C.PI[0], C.PI[1], hi, lo)
        hi, lo = select(neg, ph, hi), select(neg, pl, lo)
        v = hi + lo
    both_inf = p_and(ay.eq(INF), ax.eq(INF))
    v = select(both_inf, select(neg, _3PIO4, C.PIO4[0]), v)
    v = copysign(v, y)
    return select(p_or(isnan(x), isnan(y)), NAN, v)


_3PIO4 = float.fromhex("0x1.2d97c7f3321d2p+1")  # RN(3 pi / 4)
