"""Where the polynomial coefficients in `coeffs.py` come from (a development tool; needs mpmath).

    python -m oxidec.mathlib.fit            # prints coeffs.py to stdout

Each kernel is a minimax polynomial (Remez exchange, in mpmath at 160 bits, minimising the
relative error) of a function that the routines evaluate with Horner's rule in f64. The
printed comment beside each fit is the max relative error of the *rounded* coefficients on
a dense grid. The 2/pi bits for Payne-Hanek and the atan(j/8) table are exact constants
computed here too.
"""
from __future__ import annotations

import struct

import mpmath as mp

mp.mp.prec = 160


def _remez(f, a, b, deg, iters=30, grid=4000):
    """Coefficients c[0..deg] minimising max |(f(u) - p(u)) / f(u)| on [a, b]."""
    a, b = mp.mpf(a), mp.mpf(b)
    n = deg + 2
    pts = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (n - 1)) for i in range(n)]
    xs = [a + (b - a) * i / grid for i in range(grid + 1)]
    fx = [f(x) for x in xs]
    coeffs = None
    for _ in range(iters):
        rows, rhs = [], []
        for i, x in enumerate(pts):
            fv = f(x)
            rows.append([x ** j for j in range(deg + 1)] + [(-1) ** i * fv])
            rhs.append(fv)
        sol = mp.lu_solve(mp.matrix(rows), mp.matrix(rhs))
        coeffs = [sol[j] for j in range(deg + 1)]
        errs = [(fv - mp.polyval(coeffs[::-1], x)) / fv for x, fv in zip(xs, fx)]
        # the extrema of alternating sign: one per run of equal sign
        ext, cur = [], None
        for i, e in enumerate(errs):
            s = e >= 0
            if cur is None or s != cur[0]:
                if cur is not None:
                    ext.append(cur[1])
                cur = (s, i)
            elif abs(e) > abs(errs[cur[1]]):
                cur = (s, i)
        ext.append(cur[1])
        while len(ext) > n:  # drop the smallest at the ends
            if abs(errs[ext[0]]) < abs(errs[ext[-1]]):
                ext.pop(0)
            else:
                ext.pop()
        if len(ext) < n:
            break
        new = [xs[i] for i in ext]
        if all(abs(p - q) < (b - a) / grid / 2 for p, q in zip(pts, new)):
            break
        pts = new
    return coeffs


def _round(c):
    return float(c)


def _max_rel(f, coeffs, a, b, grid=3000):
    a, b = mp.mpf(a), mp.mpf(b)
    worst = mp.mpf(0)
    cs = [mp.mpf(c) for c in coeffs][::-1]
    for i in range(grid + 1):
        x = a + (b - a) * i / grid
        fv = f(x)
        worst = max(worst, abs((fv - mp.polyval(cs, x)) / fv))
    return float(worst)


def _series_limit(f, u):
    return f(u) if u != 0 else None


# -- the kernels ------------------------------------------------------------------------------

LN2_HALF = mp.log(2) / 2 * mp.mpf("1.0005")
PIO4 = mp.pi / 4 * mp.mpf("1.002")
PIO4_F32 = mp.pi / 4 * mp.mpf("1.02")
LOG_F_LO = (mp.sqrt(2) / 2 - 1) * mp.mpf("1.0001")
LOG_F_HI = (mp.sqrt(2) - 1) * mp.mpf("1.0001")


def exp_tail2(r):
    """(e^r - 1 - r) / r^2."""
    if abs(r) < mp.mpf(2) ** -40:
        return mp.mpf(1) / 2 + r / 6 + r * r / 24
    return (mp.expm1(r) - r) / r ** 2


def exp_quot(r):
    """(e^r - 1) / r."""
    if abs(r) < mp.mpf(2) ** -40:
        return 1 + r / 2 + r * r / 6
    return mp.expm1(r) / r


def exp2_quot(r):
    """(2^r - 1) / r."""
    if abs(r) < mp.mpf(2) ** -40:
        return mp.log(2) * (1 + r * mp.log(2) / 2 + (r * mp.log(2)) ** 2 / 6)
    return mp.expm1(r * mp.log(2)) / r


def exp_tail(r):
    """(e^r - 1 - r - r^2/2) / r^3."""
    if abs(r) < mp.mpf(2) ** -40:
        return mp.mpf(1) / 6 + r / 24 + r * r / 120
    return (mp.expm1(r) - r - r * r / 2) / r ** 3


def log_tail(v):
    """(log((1+u/2)/(1-u/2)) - u - u^3/12 - u^5/80) / u^7 with v = u^2."""
    if v < mp.mpf(2) ** -40:
        return mp.mpf(1) / 448 + v / 2304
    u = mp.sqrt(v)
    return (mp.log((1 + u / 2) / (1 - u / 2)) - u - u ** 3 / 12 - u ** 5 / 80) / u ** 7


def log_tail_lite(v):
    """(log((1+u/2)/(1-u/2)) - u) / u^3 with v = u^2."""
    if v < mp.mpf(2) ** -40:
        return mp.mpf(1) / 12 + v / 80
    u = mp.sqrt(v)
    return (mp.log((1 + u / 2) / (1 - u / 2)) - u) / u ** 3


def sin_tail(z):
    """(sin r - r) / r^3 with z = r^2."""
    if z < mp.mpf(2) ** -40:
        return -mp.mpf(1) / 6 + z / 120
    r = mp.sqrt(z)
    return (mp.sin(r) - r) / r ** 3


def cos_tail(z):
    """(cos r - 1 + r^2/2) / r^4 with z = r^2."""
    if z < mp.mpf(2) ** -40:
        return mp.mpf(1) / 24 - z / 720
    r = mp.sqrt(z)
    return (mp.cos(r) - 1 + z / 2) / z ** 2


def atan_tail(v):
    """(atan z - z) / z^3 with v = z^2."""
    if v < mp.mpf(2) ** -40:
        return -mp.mpf(1) / 3 + v / 5
    z = mp.sqrt(v)
    return (mp.atan(z) - z) / z ** 3


def log1p_tail3(f):
    """(log(1+f) - f + f^2/2) / f^3."""
    if abs(f) < mp.mpf(2) ** -40:
        return mp.mpf(1) / 3 - f / 4 + f * f / 5
    return (mp.log1p(f) - f + f * f / 2) / f ** 3


def tanh_tail(z):
    """(tanh a - a) / a^3 with z = a^2."""
    if z < mp.mpf(2) ** -40:
        return -mp.mpf(1) / 3 + 2 * z / 15
    a = mp.sqrt(z)
    return (mp.tanh(a) - a) / a ** 3


def cbrt_seed(m):
    """m^(1/3)."""
    return mp.cbrt(m)


KERNELS = {
    # name: (function, a, b, degree)
    "EXP_TAIL": (exp_tail, -LN2_HALF, LN2_HALF, 10),
    "EXP_TAIL_LITE": (exp_tail, -LN2_HALF, LN2_HALF, 5),
    "LOG_TAIL": (log_tail, 0, (2 * (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2 * mp.mpf("1.001"), 8),
    "LOG_TAIL_LITE": (log_tail_lite, 0,
                      (2 * (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2 * mp.mpf("1.001"), 4),
    "SIN_TAIL": (sin_tail, 0, PIO4 ** 2, 6),
    "COS_TAIL": (cos_tail, 0, PIO4 ** 2, 6),
    "SIN_TAIL_LITE": (sin_tail, 0, PIO4 ** 2, 3),
    "COS_TAIL_LITE": (cos_tail, 0, PIO4 ** 2, 3),
    "ATAN_TAIL": (atan_tail, 0, (mp.mpf(1) / 16 * mp.mpf("1.01")) ** 2, 4),
    "ATAN_TAIL_LITE": (atan_tail, 0, (mp.mpf(1) / 16 * mp.mpf("1.01")) ** 2, 2),
    "CBRT_SEED": (cbrt_seed, 1, 2, 4),
    # the f32-native routines (explog32.py): coefficients rounded to f32 (a 5th field, the
    # significand bits)
    "EXP_TAIL_F32": (exp_tail2, -LN2_HALF, LN2_HALF, 5, 24),
    # e^r = 1 + r Q(r): the exp fast core (degree 6) and tanh's e^2a (degree 5)
    "EXP_QUOT_F32": (exp_quot, -LN2_HALF, LN2_HALF, 6, 24),
    "EXP_QUOT5_F32": (exp_quot, -LN2_HALF, LN2_HALF, 5, 24),
    # 2^r = 1 + r Q(r) for |r| <= 1/2 (r exact): exp2's core
    "EXP2_QUOT_F32": (exp2_quot, -mp.mpf("0.5"), mp.mpf("0.5"), 6, 24),
    # log32.py: m = 1 + f in [sqrt(1/2), sqrt(2))
    "LOG1P_TAIL_F32": (log1p_tail3, LOG_F_LO, LOG_F_HI, 8, 24),
    # trig32.py: |r| <= pi/4 plus the slack of a k rounded in f32
    "SIN_TAIL_F32": (sin_tail, 0, PIO4_F32 ** 2, 3, 24),
    "COS_TAIL_F32": (cos_tail, 0, PIO4_F32 ** 2, 3, 24),
    # hyper32.py: tanh a for a <= 1/4
    "TANH_TAIL_F32": (tanh_tail, 0, mp.mpf("0.2501") ** 2, 3, 24),
    # hyper32.py: tanh a for a < 0.5625 (the quotient form takes over where tanh > 1/2)
    "TANH_TAIL4_F32": (tanh_tail, 0, mp.mpf("0.5626") ** 2, 4, 24),
}


def two_over_pi_words(nwords: int) -> list[int]:
    """Bits of 2/pi after the binary point, 32 per word, most significant first."""
    with mp.workprec(nwords * 32 + 64):
        v = mp.mpf(2) / mp.pi
        n = int(mp.floor(v * mp.mpf(2) ** (nwords * 32)))
    return [(n >> (32 * (nwords - 1 - i))) & 0xFFFFFFFF for i in range(nwords)]


def hexf(x: float) -> str:
    return float(x).hex()


def _round_bits(x, bits: int) -> float:
    """x rounded to `bits` significant bits."""
    e = int(mp.floor(mp.log(abs(x), 2)))
    return float(mp.ldexp(mp.nint(mp.ldexp(x, bits - 1 - e)), e - bits + 1))


def _split_f32(x, bits: int) -> tuple[float, float]:
    """x = hi + lo: hi with `bits` significant bits, lo rounded to f32."""
    hi = _round_bits(x, bits)
    return hi, _round_bits(x - hi, 24)


def _split3_f32(x) -> tuple[float, float, float]:
    p1 = _round_bits(x, 24)
    p2 = _round_bits(x - p1, 24)
    return p1, p2, _round_bits(x - p1 - p2, 24)


def _dd(x) -> tuple[float, float]:
    hi = float(x)
    return hi, float(x - hi)


def constants() -> dict[str, object]:
    ln2, pio2 = mp.log(2), mp.pi / 2
    ln2_hi = _round_bits(ln2, 42)
    p1 = float(mp.nint(pio2 * 2 ** 26) / 2 ** 26)  # 27 bits: k * P1 exact for |k| < 2^26
    p2 = float(mp.nint((pio2 - p1) * 2 ** 52) / 2 ** 52)  # <= 25 bits: k * P2 exact
    p3 = float(pio2 - p1 - p2)
    p4 = float(pio2 - p1 - p2 - p3)
    return {
        "LN2_HI42": (ln2_hi, float(ln2 - ln2_hi)),
        "LN2": _dd(ln2),
        "INV_LN2": float(1 / ln2),
        "LOG2E": _dd(1 / ln2),
        "LOG10E": _dd(1 / mp.log(10)),
        "R12": _dd(mp.mpf(1) / 12),
        "R80": _dd(mp.mpf(1) / 80),
        "PIO2_CW": (p1, p2, p3, p4),
        "PIO2": _dd(pio2),
        "PI": _dd(mp.pi),
        "PIO4": _dd(mp.pi / 4),
        "TWO_OVER_PI_D": float(2 / mp.pi),
        "CBRT2": float(mp.cbrt(2)),
        "CBRT4": float(mp.cbrt(4)),
        # f32: ln2 = LN2_F32[0] + LN2_F32[1] to 2^-48 relative; log2(e) rounded to f32
        "LN2_F32": (_round_bits(ln2, 24), _round_bits(ln2 - _round_bits(ln2, 24), 24)),
        "LOG2E_F32": _round_bits(1 / ln2, 24),
        # k * hi exact for |k| < 2^8 (16-bit hi parts): log32.py
        "LN2_F32_16": _split_f32(ln2, 16),
        "LOG10_2_F32_16": _split_f32(mp.log10(2), 16),
        "LOG2E_F32_DD": _split_f32(1 / ln2, 24),
        "LOG10E_F32_DD": _split_f32(1 / mp.log(10), 24),
        # pi/2 = P1 + P2 + P3 (24 bits each): trig32.py
        "PIO2_F32": _split3_f32(pio2),
        "TWO_OVER_PI_F32": _round_bits(2 / mp.pi, 24),
    }


def _lit(v) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_lit(x) for x in v) + ")"
    return f"float.fromhex({hexf(v)!r})"


def main() -> None:
    print('"""Generated by `python -m oxidec.mathlib.fit`: do not edit by hand."""')
    print()
    for name, (f, a, b, deg, *bits) in KERNELS.items():
        cs = _remez(f, a, b, deg)
        rounded = [_round_bits(c, bits[0]) if bits else _round(c) for c in cs]
        err = _max_rel(f, rounded, a, b)
        print(f"# {f.__doc__.strip().rstrip('.')} on [{float(a):.6g}, {float(b):.6g}], "
              f"degree {deg}: max rel error {err:.3g}")
        print(f"{name} = (" + ", ".join(f"float.fromhex({hexf(c)!r})" for c in rounded) + ")")
        print()
    print("# constants (double-double pairs are (hi, lo))")
    for name, v in constants().items():
        print(f"{name} = {_lit(v)}")
    print()
    words = two_over_pi_words(40)
    print("# 2/pi: 1280 bits after the binary point, 32 per word, most significant first")
    print("TWO_OVER_PI = (")
    for i in range(0, len(words), 6):
        print("    " + ", ".join("0x%08X" % w for w in words[i:i + 6]) + ",")
    print(")")
    print()
    print("# atan(j/8) for j = 0..8, as (hi, lo) pairs")
    print("ATAN_J8 = (")
    for j in range(9):
        v = mp.atan(mp.mpf(j) / 8)
        hi = float(v)
        lo = float(v - hi)
        print(f"    (float.fromhex({hexf(hi)!r}), float.fromhex({hexf(lo)!r})),")
    print(")")


if __name__ == "__main__":
    main()
