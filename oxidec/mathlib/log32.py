"""ln, log2 and log10 computed in f32 (the f64-based correctly rounded ones stay available as
`ln_exact`, `log2_exact`, `log10_exact`).

x = 2^k m with m in [sqrt(1/2), sqrt(2)) (the offset trick of explog.log_core, on the f32
bits; subnormals scaled by 2^24 first), f = m - 1 (exact, Sterbenz). log(1 + f) = f + t with
t = -f^2/2 + f^3 R(f), R a degree-8 minimax fit of (log(1+f) - f + f^2/2)/f^3 (f32
coefficients, 2^-23.8 relative). f^2 = p + pe exactly (fma); hp = -p/2 is exact, so the only
inexact part, rest = f^3 R - pe/2, is at most 0.07 |log(1 + f)|.
ln: k ln2 + f + hp + rest with k LN2_HI exact (16-bit LN2_HI, |k| < 2^8): two Fast2Sums
gather k LN2_HI + f + hp exactly, then s + (rest + errors + k LN2_LO): one significant
rounding, the last.
log2 and log10: k C + B (f + hp + rest) with B = log2 e or log10 e as an f32 pair:
u = f + hp exactly (Fast2Sum), B_hi u split exactly (fma), Fast2Sum with k C_hi, and the
small terms added last.
The GPU runs no f64 op. Measured error: the table in mathlib/__init__.py.
"""
from __future__ import annotations

from . import coeffs as C
from .dd import fast_two_sum, horner
from .ir import F32, S32, U32, const, fma, isnan, select

INF = float("inf")
NAN = float("nan")


def _reduce(x):
    """For finite x > 0: (kf, f) with x = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2))."""
    sub = x < 2.0 ** -126
    xs = select(sub, x * 2.0 ** 24, x)
    bo = xs.bits() + (0x3F800000 - 0x3F3504F3)
    k = (bo >> 23).view(S32) - select(sub, const(127 + 24, S32), const(127, S32))
    m = ((bo & 0x007FFFFF) + 0x3F3504F3).view(F32)
    return k.cvt(F32), m - 1.0  # exact


def _tail(f):
    """log(1 + f) = f + hp + rest with hp = -f^2/2 rounded (its error goes to rest) and
    rest = f^3 R(f) - (the rounding error of hp): only rest, <= 0.07 |log(1 + f)|, is inexact."""
    p = f * f
    pe = fma(f, f, -p)  # f^2 = p + pe exactly
    return p * -0.5, fma(f * p, horner(f, C.LOG1P_TAIL_F32), pe * -0.5)


def _specials(x, r):
    r = select(x.eq(0.0), -INF, r)
    r = select(x < 0.0, NAN, r)
    r = select(x.eq(INF), INF, r)
    return select(isnan(x), x, r)


def _input(x):
    from .ir import p_and
    return select(p_and(x > 0.0, x < INF), x, const(1.0, F32))


def ln(x):
    kf, f = _reduce(_input(x))
    hp, rest = _tail(f)
    s, e = fast_two_sum(kf * C.LN2_F32_16[0], f)  # |k ln2| > |f|, or k == 0
    s, e2 = fast_two_sum(s, hp)  # |s| >= 0.27 > |hp|, or s == f
    r = s + (rest + (e2 + fma(kf, C.LN2_F32_16[1], e)))
    return _specials(x, r)


def _scaled(x, b, c):
    """k c + b log(m) for the pairs b = (b_hi, b_lo) and c = (c_hi (16 bits), c_lo)."""
    kf, f = _reduce(_input(x))
    hp, rest = _tail(f)
    u, ue = fast_two_sum(f, hp)  # |f| > f^2/2
    ph = u * b[0]
    pl = fma(u, b[0], -ph)  # u b_hi = ph + pl exactly
    kh = kf if c is None else kf * c[0]
    s, e = fast_two_sum(kh, ph)  # |k c| > |b u|, or k == 0
    lo = fma(u, b[1], fma(ue + rest, b[0], e + pl))
    if c is not None:
        lo = fma(kf, c[1], lo)
    return _specials(x, s + lo)


def log2(x):
    return _scaled(x, C.LOG2E_F32_DD, None)


def log10(x):
    return _scaled(x, C.LOG10E_F32_DD, C.LOG10_2_F32_16)
