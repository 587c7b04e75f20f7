"""`f16` and `bf16` scalars on the simulator. A half is held as its 16 bits (uint16 lanes:
the two formats share no NumPy dtype); every operation decodes to float64 (exact), computes,
and rounds once to the format (packed.round_to: nearest even, subnormals kept, overflow to
inf), giving what the instructions of ptx/halves.py give:

    add/sub/mul/div   exact or innocuously double-rounded in float64 (53 >= 2*11 + 2), so
                      one rounding to the half is the correctly rounded result (for div the
                      GPU rounds through f32: the same result, by the same bound)
    fma               exact product, the sum rounded to odd in float64, then to the half:
                      RN(RO53(x)) == RN(x) since 53 >= 11 + 2
    NaN results       the canonical NaN 0x7FFF (f64 -> f16: the NaN's sign and payload,
                      quieted, as `cvt.rn.f16.f64` gives)
    neg, abs          sign-bit operations on the bits
    casts             Rust `as`: one rounding to nearest even; to integers through the
                      exact value (saturating, NaN -> 0)
"""
from __future__ import annotations

import numpy as np

from .. import types as T
from .errors import SimError
from .fma import _round_to_odd, _two_sum
from .ops import float_to_int
from .packed import decode, encode, round_to

SIGN = np.uint16(0x8000)


def fmt(ty: T.Ty) -> str:
    return "bf16" if ty.brain else "f16"


def value(bits: np.ndarray, ty: T.FloatTy) -> np.ndarray:
    """The exact values of half lanes, as float64."""
    return decode(np.asarray(bits), fmt(ty))


def from_float(x: np.ndarray, ty: T.FloatTy) -> np.ndarray:
    """float64 lanes rounded once to the half format -> bits (NaN: canonical)."""
    with np.errstate(all="ignore"):
        return encode(round_to(np.asarray(x, dtype=np.float64), fmt(ty)), fmt(ty))


def binary(op: str, a: np.ndarray, b: np.ndarray, ty: T.FloatTy) -> np.ndarray:
    x, y = value(a, ty), value(b, ty)
    with np.errstate(all="ignore"):
        if op in ("eq", "ne", "lt", "le", "gt", "ge"):
            return getattr(np, {"eq": "equal", "ne": "not_equal", "lt": "less",
                                "le": "less_equal", "gt": "greater",
                                "ge": "greater_equal"}[op])(x, y)
        if op == "add":
            r = x + y
        elif op == "sub":
            r = x - y
        elif op == "mul":
            r = x * y
        elif op == "div":
            r = x / y
        elif op == "rem":
            r = np.fmod(x, y)  # exact (and representable in the half)
        else:
            raise SimError(f"no `{op}` on `{ty}`")
    return from_float(r, ty)


def neg(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.uint16) ^ SIGN


def fma(a, b, c, ty: T.FloatTy) -> np.ndarray:
    x, y, z = np.broadcast_arrays(value(a, ty), value(b, ty), value(c, ty))
    with np.errstate(all="ignore"):
        p = x * y  # exact: at most 22 significant bits
        s, e = _two_sum(p, z)
        finite = np.isfinite(s) & np.isfinite(e)
        r = np.where(finite, _round_to_odd(s, np.where(finite, e, 0.0)), p + z)
    return from_float(r, ty)


def cast(v: np.ndarray, src: T.Ty, dst: T.Ty) -> np.ndarray:
    """Rust `as` where `src` or `dst` is a half."""
    if T.is_half(src):
        x = value(v, src)
        if T.is_half(dst):
            return from_float(x, dst)
        if isinstance(dst, T.FloatTy) and dst.bits == 32:
            return _half_to_f32(np.asarray(v), x, src)
        if isinstance(dst, T.FloatTy):
            return x.astype(np.float64)
        if isinstance(dst, T.IntTy):
            from .layout import canon, scalar_dtype
            return float_to_int(x, scalar_dtype(canon(dst)))
        raise SimError(f"cannot cast `{src}` to `{dst}`")
    v = np.asarray(v)
    if v.dtype == np.float64 and dst == T.F16:
        return _f64_nans_to_f16(v, from_float(v, dst))
    if v.dtype.kind == "f":
        return from_float(v.astype(np.float64), dst)
    if v.dtype.kind in "iu":
        return from_float(_int_to_odd(v), dst)
    raise SimError(f"cannot cast `{src}` to `{dst}`")


def _half_to_f32(bits: np.ndarray, x: np.ndarray, src: T.FloatTy) -> np.ndarray:
    """`h as f32` as the H200 does it: a bf16 is its bits shifted up (a signalling NaN stays
    signalling: 0x7fa1 -> 0x7fa10000); an f16 NaN becomes the canonical 0x7fffffff
    (`cvt.f32.f16`, measured on the H200 for 0x7e00)."""
    if src == T.BF16:
        return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)
    out = x.astype(np.float32)
    nan = np.isnan(out)
    if nan.any():
        out = out.copy()
        out.view(np.uint32)[nan] = np.uint32(0x7FFFFFFF)
    return out


def _f64_nans_to_f16(v: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """`cvt.rn.f16.f64` (the one cast to a half that is one instruction from f64) keeps a
    NaN's sign and the top 10 bits of its payload, quieted: f64 NaN 0x7ff8000000000000
    gives 0x7e00 on the H200, not the canonical 0x7fff of the f32 -> f16 `cvt`."""
    nan = np.isnan(v)
    if not nan.any():
        return bits
    raw = np.asarray(v, dtype=np.float64).view(np.uint64)
    sign = ((raw >> np.uint64(48)) & np.uint64(0x8000)).astype(np.uint16)
    payload = ((raw >> np.uint64(42)) & np.uint64(0x3FF)).astype(np.uint16)
    nan_bits = sign | np.uint16(0x7E00) | payload
    return np.where(nan, nan_bits, bits).astype(np.uint16)


def _int_to_odd(v: np.ndarray) -> np.ndarray:
    """Integers as float64, exact or rounded to odd at 24 bits (then one more rounding to
    a half is the correctly rounded result: int64 -> float64 alone would round twice)."""
    neg_ = v < 0 if v.dtype.kind == "i" else np.zeros(v.shape, dtype=bool)
    m = np.where(neg_, (-(v.astype(np.int64))).astype(np.uint64), v.astype(np.uint64))
    with np.errstate(all="ignore"):
        bitlen = np.frexp(m.astype(np.float64))[1]  # may be one too many: harmless
    shift = np.maximum(bitlen - 24, 0).astype(np.uint64)
    t = m >> shift
    sticky = (m & ((np.uint64(1) << shift) - np.uint64(1))) != 0
    t = t | sticky.astype(np.uint64)
    r = np.ldexp(t.astype(np.float64), shift.astype(np.int64))
    return np.where(neg_, -r, r)


# -- the compiler's entry points (sim/compile.py) ----------------------------------------

def rvalue(rv, operand):
    """The lane function of a BinaryOp, UnaryOp or Cast on halves (None: not one).
    `operand(op)` is the compiler's (lane function, type) of an operand."""
    from ..mir import syntax as M
    if isinstance(rv, M.BinaryOp):
        (f, ty), (g, _) = operand(rv.lhs), operand(rv.rhs)
        op = rv.op
        return (lambda x: binary(op, f(x), g(x), ty)) if T.is_half(ty) else None
    if isinstance(rv, M.UnaryOp):
        f, ty = operand(rv.operand)
        return (lambda x: neg(f(x))) if T.is_half(ty) and rv.op == "neg" else None
    if isinstance(rv, M.Cast):
        (f, ty), dst = operand(rv.operand), rv.ty
        return (lambda x: cast(f(x), ty, dst)) if T.is_half(ty) or T.is_half(dst) else None
    return None


def atomic_work_dtype(dt: np.dtype, op: str, elem: T.Ty) -> np.dtype:
    """The dtype an atomic computes in: exch/cas move and compare bits (the unsigned view of
    a float); f16 add/sub run on NumPy's float16, which rounds every step as atom.add.f16."""
    if elem == T.F16 and op in ("add", "sub"):
        return np.dtype(np.float16)
    return np.dtype(f"u{dt.itemsize}") if dt.kind == "f" and op in ("exch", "cas") else dt
