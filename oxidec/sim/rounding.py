"""`cuda_device::float` on the simulator (rows: device_api/rounding.py): the exact result of
each lane (`fractions.Fraction`), rounded once in the instruction's mode, so the simulator
gives the GPU's bits for add/mul/div/fma/rcp/sqrt in every mode and modifier:

    rn / rz / rm / rp    nearest even / toward zero / toward -inf / toward +inf; a result
                         beyond the largest finite value is inf, or the largest finite value
                         where the mode rounds toward it (rz; rm above, rp below)
    ftz (f32)            subnormal operands and results are zeros of the same sign
    sat (f32)            the result clamped to [+0, 1]; NaN gives +0
    exact zeros          x + (-x) is +0 (-0 in rm); a product or quotient keeps the sign rule
    NaN                  as every float operation (sim/nans.py)

The `approx` instructions are MUFU approximations on the GPU; here they are the function
correctly rounded (NumPy in float64, then one rounding), within their stated error of the
GPU's values, not bit for bit.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..device_api.rounding import OPCODES
from .nans import gpu_nans

# (significand bits, lowest normal exponent, highest exponent)
FORMATS = {np.dtype(np.float32): (24, -126, 127), np.dtype(np.float64): (53, -1022, 1023)}


def round_fraction(v: Fraction, mode: str, dt: np.dtype) -> float:
    """The float of format `dt` that `v` (non-zero) rounds to in `mode`."""
    p, emin, emax = FORMATS[dt]
    negative = v < 0
    m = -v if negative else v
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    e = max(e, emin)
    q = m / Fraction(2) ** (e - (p - 1))
    n, rem = divmod(q.numerator, q.denominator)
    away = (mode == "rp" and not negative) or (mode == "rm" and negative)
    if mode == "rn":
        if 2 * rem > q.denominator or (2 * rem == q.denominator and n & 1):
            n += 1
    elif away and rem:
        n += 1
    if n >> p:
        n, e = n >> 1, e + 1
    if e > emax:
        big = math.inf if mode == "rn" or away else \
            float((2 ** p - 1) * Fraction(2) ** (emax - (p - 1)))
        return -big if negative else big
    r = float(n * Fraction(2) ** (e - (p - 1)))
    return -r if negative else r


def _zero_sign(opcode: str, mode: str, vals: list[float]) -> float:
    """The sign of an exact zero result (IEEE 754 6.3)."""
    op = opcode.split(".")[0]
    if op in ("mul", "div"):
        return math.copysign(0.0, math.copysign(1, vals[0]) * math.copysign(1, vals[1]))
    if op == "sqrt":
        return vals[0]  # sqrt(+-0) = +-0
    if op == "add":
        terms = vals
    else:  # fma: the product's sign and the addend's
        terms = [math.copysign(1, vals[0]) * math.copysign(1, vals[1]) * 0.0 if
                 vals[0] * vals[1] == 0 else vals[0] * vals[1], vals[2]]
        if terms[0] != 0 or terms[1] != 0:
            terms = [1.0, -1.0]  # a non-zero product cancelled by the addend
    signs = {math.copysign(1, t) for t in terms}
    if all(t == 0 for t in terms) and len(signs) == 1:
        return math.copysign(0.0, signs.pop())
    return -0.0 if mode == "rm" else 0.0


def _exact(op: str, f: list[Fraction]) -> Fraction:
    if op == "add":
        return f[0] + f[1]
    if op == "mul":
        return f[0] * f[1]
    if op == "div":
        return f[0] / f[1]
    if op == "fma":
        return f[0] * f[1] + f[2]
    return 1 / f[0]  # rcp


def _sqrt_rounded(v: Fraction, mode: str, dt: np.dtype) -> float:
    """sqrt(v), v > 0, rounded in `mode`: an integer square root at p + 2 more bits; an
    inexact one lies strictly between q and q + 1, as q + 1/2 does, so both round alike."""
    p = FORMATS[dt][0]
    k = p + 2 - (v.numerator.bit_length() - v.denominator.bit_length()) // 2 + 2
    scaled = v * Fraction(4) ** k
    n = scaled.numerator // scaled.denominator
    q = math.isqrt(n)
    exact = q * q == n and scaled.denominator == 1
    root = Fraction(q) if exact else q + Fraction(1, 2)
    return round_fraction(root / Fraction(2) ** k, mode, dt)


def _lane(opcode: str, vals: list[float], dt: np.dtype, fallback: float) -> float:
    parts = opcode.split(".")
    op, mode = parts[0], parts[1]
    if not all(math.isfinite(v) for v in vals) or math.isnan(fallback):
        return fallback  # inf and NaN results do not depend on the mode
    if op in ("div", "rcp") and vals[-1] == 0:
        return fallback
    if op == "sqrt":
        if vals[0] <= 0:
            return fallback  # +-0 -> +-0, negative -> NaN
        return _sqrt_rounded(Fraction(vals[0]), mode, dt)
    exact = _exact(op, [Fraction(v) for v in vals])
    if exact == 0:
        return _zero_sign(opcode, mode, vals)
    return round_fraction(exact, mode, dt)


def _flush(a: np.ndarray) -> np.ndarray:
    """ftz: subnormals to zeros of the same sign."""
    tiny = (a != 0) & (np.abs(a) < np.finfo(a.dtype).tiny)
    return np.where(tiny, np.copysign(np.zeros_like(a), a), a) if tiny.any() else a


_APPROX = {"sin": np.sin, "cos": np.cos, "ex2": np.exp2, "lg2": np.log2, "tanh": np.tanh,
           "rsqrt": lambda a: 1 / np.sqrt(a), "sqrt": np.sqrt, "rcp": lambda a: 1 / a}
_NUMPY = {"add": np.add, "mul": np.multiply, "div": np.divide, "sqrt": np.sqrt,
          "rcp": lambda a: 1 / a, "fma": lambda a, b, c: a * b + c}


def rounded(opcode: str):
    parts = opcode.split(".")
    op = parts[0]
    ftz, sat = "ftz" in parts, "sat" in parts

    def impl(x, args, arg_tys, result_ty):
        args = [np.asarray(a) for a in args]
        dt = args[0].dtype
        if ftz:
            args = [_flush(a) for a in args]
        with np.errstate(all="ignore"):
            if op in ("max", "min"):  # `.xorsign.abs` (sim/packed.py: the PTX rules)
                from .packed import _minmax
                out = _minmax(op, "NaN" in parts, *(a.astype(np.float64) for a in args),
                              xorsign=True).astype(dt)
            elif "approx" in parts:
                out = _APPROX[op](*(a.astype(np.float64) for a in args)).astype(dt)
            else:
                rn = _NUMPY[op](*(a.astype(np.float64) for a in args)).astype(dt)
                out = np.array([_lane(opcode, [float(a[i]) for a in args], dt, float(rn[i]))
                                for i in range(rn.size)], dtype=dt).reshape(rn.shape)
        out = gpu_nans(out, *args, first=op in ("div", "fma"))
        if ftz:
            out = _flush(out)
        if sat:
            out = np.where(np.isnan(out), dt.type(0), np.clip(out, 0, 1)).astype(dt)
            out = np.where(out == 0, dt.type(0), out)  # +0, never -0
        return out
    return impl


INTRINSICS = {f"float.{opcode}": rounded(opcode) for opcode in OPCODES}
