"""sin, cos and tan computed in f32 (the f64-based correctly rounded ones stay available as
`sin_exact`, `cos_exact`, `tan_exact`).

Reduction (|x| < 2^17): k = the integer nearest x 2/pi (explog32.nearest_int), x = k pi/2 + rh + rl with pi/2 = P1 + P2 + P3 (24
bits each): x - k P1 is exact in one fma (it is a multiple of 2^-23, or of 2^-24 when
|x| < 1, below 2 in magnitude), k P2 is split exactly with fma, TwoSum subtracts it, and k P3
goes to the low part: rh + rl carries r to about 2^-70 absolute, far below what the closest
f32 to a multiple of pi/2 needs. Larger |x| (rare) take a branch to the f64 Payne-Hanek
reduction of trig.py (exact for any f32 this large), rounded to the same (rh, rl) pair; the polynomials are shared.
sin r = rh + (r^3 S(r^2) + rl (1 - r^2/2)), cos r = (1 - r^2/2) + ... with 1 - r^2/2 carried
exactly (r^2 split by fma, Fast2Sum), S and C degree-3 minimax fits in f32 (2^-25 relative,
entering scaled by r^2/6 <= 0.11): each result is one rounding of a pair good to about
2^-30 relative. tan = the quotient of the pairs: the product with a division-free
reciprocal (hyper32.recip_approx), then a remainder correction.
The GPU runs no f64 op unless some lane has |x| >= 2^17.
"""
from __future__ import annotations

from . import coeffs as C
from .dd import fast_two_sum, two_prod, two_sum
from .hyper32 import recip_approx
from .explog32 import nearest_int
from .ir import F32, F64, If, Var, copysign, fabs, fma, p_not, p_or, select
from .trig import payne_hanek, sincos_pair

INF = float("inf")
NAN = float("nan")
BIG = 2.0 ** 17


def reduce_pio2_f32(x):
    """For finite x: (q, rh, rl) with x = q pi/2 + rh + rl, |rh| <~ pi/4 (q is s32)."""
    big = fabs(x) >= BIG
    xc = select(big, 0.0, x)
    kf, k = nearest_int(xc, C.TWO_OVER_PI_F32)
    p1, p2, p3 = C.PIO2_F32
    t1 = fma(-kf, p1, xc)  # exact
    th, tl = two_prod(kf, p2)
    s, e = two_sum(t1, -th)
    rh, rl = fast_two_sum(s, fma(-kf, p3, e - tl))
    q_v, rh_v, rl_v = Var(k), Var(rh), Var(rl)
    with If(big):
        q2, h2, l2 = payne_hanek(x.cvt(F64))
        r2 = h2 + l2
        rh2 = r2.cvt(F32)
        q_v.set(q2)
        rh_v.set(rh2)
        rl_v.set((r2 - rh2.cvt(F64)).cvt(F32))
    return q_v.get(), rh_v.get(), rl_v.get()


def sincos_f32(rh, rl):
    """((sh, sl), (ch, cl)): sin and cos of rh + rl as f32 pairs."""
    return sincos_pair(rh, rl, C.SIN_TAIL_F32, C.COS_TAIL_F32)


def _input(x):
    ax = fabs(x)
    tiny = ax < 2.0 ** -12  # sin x = x, cos x = 1, tan x = x after rounding
    fin = ax < INF
    return tiny, fin, select(p_or(tiny, p_not(fin)), 0.0, x)


def _quadrant(q, s, c):
    odd = (q & 1).eq(1)
    v = select(odd, s_round(c), s_round(s))
    return select((q & 2).eq(2), -v, v)


def s_round(pair):
    return pair[0] + pair[1]


def sin(x):
    tiny, fin, xs = _input(x)
    q, rh, rl = reduce_pio2_f32(xs)
    s, c = sincos_f32(rh, rl)
    v = select(tiny, x, _quadrant(q, s, c))
    return select(fin, v, NAN)


def cos(x):
    tiny, fin, xs = _input(x)
    q, rh, rl = reduce_pio2_f32(xs)
    s, c = sincos_f32(rh, rl)
    v = select(tiny, 1.0, _quadrant(q + 1, s, c))
    return select(fin, v, NAN)


def tan(x):
    tiny, fin, xs = _input(x)
    q, rh, rl = reduce_pio2_f32(xs)
    (sh, sl), (ch, cl) = sincos_f32(rh, rl)
    odd = (q & 1).eq(1)
    nh, nl = select(odd, ch, sh), select(odd, cl, sl)
    dh, dl = select(odd, sh, ch), select(odd, sl, cl)
    y = copysign(recip_approx(fabs(dh)), dh)  # |dh| in [2^-30, 1]: normal
    t = nh * y  # within 2^-22; the remainder correction leaves about 2^-44
    t = t + (fma(-t, dh, nh) + (nl - t * dl)) * y
    v = select(odd, -t, t)
    v = select(tiny, x, v)
    return select(fin, v, NAN)
