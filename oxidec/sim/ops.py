"""Scalar operations on lane vectors, with the semantics stated in `mir/syntax.py`.

Dispatch is on NumPy dtypes (a dtype fixes width and signedness, which is all the integer
semantics depend on): add/sub/mul/neg wrap (NumPy integer arrays do), shifts mask the amount
to the width and `shr` is arithmetic for signed types, div/rem truncate, floats are IEEE with
f32 arithmetic done in float32 (correctly rounded), `ne` is unordered. `cast` is Rust `as`.
Operands are never modified in place.
"""
from __future__ import annotations

import numpy as np

from .. import types as T
from .errors import LaneFault, SimError
from .layout import BOOL_DTYPE, canon, scalar_dtype
from .nans import gpu_nans

_UNSIGNED = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
             8: np.dtype(np.uint64)}


def unsigned_view(a: np.ndarray) -> np.ndarray:
    return a.view(_UNSIGNED[a.dtype.itemsize]) if a.dtype.kind == "i" else a


def binary(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # No np.errstate here: the machine runs every batch with all floating-point warnings off.
    if op in ("shl", "shr"):
        return _shift(op, a, b)
    if b.dtype != a.dtype:
        b = b.astype(a.dtype)
    fn = _BINARY.get(op)
    if fn is None:
        raise SimError(f"unknown binary operator `{op}`")
    if op in _FLOAT_ARITH and a.dtype.kind == "f":
        return gpu_nans(fn(a, b), a, b, first=op == "div")
    return fn(a, b)


_FLOAT_ARITH = {"add", "sub", "mul", "div"}  # `rem` runs the GPU's own fmod routine


def _shift(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind not in "iu":
        raise SimError(f"`{op}` on {a.dtype}")
    bits = a.dtype.itemsize * 8
    amt = (b.astype(np.uint64) & np.uint64(bits - 1))
    if op == "shl":
        u = unsigned_view(a)
        return np.left_shift(u, amt.astype(u.dtype)).view(a.dtype)
    return np.right_shift(a, amt.astype(a.dtype))  # arithmetic for signed dtypes


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        return a / b
    b = _nonzero(b, "attempt to divide by zero")
    if a.dtype.kind == "u":
        return a // b
    m1 = b == -1
    b1 = np.where(m1, np.ones_like(b), b)
    r = np.fmod(a, b1)
    q = (a - r) // b1
    return np.where(m1, np.negative(a), q)  # MIN / -1 wraps to MIN


def _rem(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":  # Rust `%` on floats: exact fmod, the GPU's routine and NaN bits
        from ..mathlib import simulate
        a, b = np.broadcast_arrays(a, b)
        return simulate("fmod", [a.ravel(), b.ravel()]).reshape(a.shape)
    b = _nonzero(b, "attempt to calculate the remainder with a divisor of zero")
    if a.dtype.kind == "u":
        return a % b
    m1 = b == -1
    b1 = np.where(m1, np.ones_like(b), b)
    return np.where(m1, np.zeros_like(a), np.fmod(a, b1))


def _nonzero(b: np.ndarray, reason: str) -> np.ndarray:
    z = b == 0
    if z.any():
        raise LaneFault(reason, positions=np.flatnonzero(z.reshape(b.shape[0], -1).any(1)))
    return b


def _bitop(ufunc):
    def fn(a, b):
        if a.dtype.kind == "f":
            raise SimError(f"bitwise operator on {a.dtype}")
        return ufunc(a, b)
    return fn


_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _div, "rem": _rem,
    "bitand": _bitop(np.bitwise_and), "bitor": _bitop(np.bitwise_or),
    "bitxor": _bitop(np.bitwise_xor),
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
}


def unary(op: str, a: np.ndarray) -> np.ndarray:
    if op == "neg":
        return np.negative(a)
    if op == "not":
        return np.logical_not(a) if a.dtype == BOOL_DTYPE else np.invert(a)
    raise SimError(f"unknown unary operator `{op}`")


def cast(value, src: T.Ty, dst: T.Ty):
    """Rust `as` from type src to type dst (original types; pointers are u64 addresses)."""
    dst_c = canon(dst)
    if isinstance(value, tuple):  # a fat pointer: `as` keeps the data pointer
        if isinstance(dst_c, T.TupleTy):
            return value
        value = value[0]
    dt = scalar_dtype(dst_c)
    if dt is None:
        raise SimError(f"cannot cast `{src}` to `{dst}`")
    if value.dtype == dt:
        return value
    if value.dtype.kind == "f" and dt.kind in "iu":
        return float_to_int(value, dt)
    if dt == BOOL_DTYPE:
        return value != 0
    return value.astype(dt)


def float_to_int(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Saturating float -> int, NaN -> 0 (Rust `as`)."""
    info = np.iinfo(dt)
    lo, hi_edge = float(int(info.min)), float(int(info.max) + 1)  # both exact powers of two
    t = np.trunc(x.astype(np.float64))
    ok = (t >= lo) & (t < hi_edge)  # False for NaN
    out = np.zeros(x.shape, dtype=dt)
    out[ok] = t[ok].astype(dt)
    out[t >= hi_edge] = info.max
    out[t < lo] = info.min
    return out
