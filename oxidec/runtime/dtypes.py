"""One table from the kernel language's scalar types to NumPy dtypes and ctypes.

bool is one byte everywhere (NumPy's bool_, a `.u8` PTX parameter); usize/isize are 64-bit.
f16 is NumPy's float16; bf16, which NumPy lacks, is held as its uint16 bits
(`(np.float32(x).view(np.uint32) >> 16)` truncates; `bf16_bits` rounds to nearest even).
"""
from __future__ import annotations

import ctypes

import numpy as np

from .. import types as T

#                 Rust type   NumPy dtype          ctypes (PTX .param)
_TABLE: tuple[tuple[T.Ty, np.dtype, type], ...] = (
    (T.I8, np.dtype(np.int8), ctypes.c_int8),
    (T.I16, np.dtype(np.int16), ctypes.c_int16),
    (T.I32, np.dtype(np.int32), ctypes.c_int32),
    (T.I64, np.dtype(np.int64), ctypes.c_int64),
    (T.ISIZE, np.dtype(np.int64), ctypes.c_int64),
    (T.U8, np.dtype(np.uint8), ctypes.c_uint8),
    (T.U16, np.dtype(np.uint16), ctypes.c_uint16),
    (T.U32, np.dtype(np.uint32), ctypes.c_uint32),
    (T.U64, np.dtype(np.uint64), ctypes.c_uint64),
    (T.USIZE, np.dtype(np.uint64), ctypes.c_uint64),
    (T.F16, np.dtype(np.float16), ctypes.c_uint16),  # a half parameter: its bits
    (T.BF16, np.dtype(np.uint16), ctypes.c_uint16),  # NumPy has no bf16: the bits
    (T.F32, np.dtype(np.float32), ctypes.c_float),
    (T.F64, np.dtype(np.float64), ctypes.c_double),
    (T.BOOL, np.dtype(np.bool_), ctypes.c_uint8),
)

NUMPY_DTYPES: dict[T.Ty, np.dtype] = {ty: dt for ty, dt, _ in _TABLE}
CTYPES: dict[T.Ty, type] = {ty: ct for ty, _, ct in _TABLE}


def numpy_dtype(ty: T.Ty) -> np.dtype | None:
    """The NumPy dtype of a scalar type, or of a struct / array of them (C layout: NumPy's
    aligned struct dtypes pad exactly as C does); None for types the host cannot pass."""
    if isinstance(ty, T.StructTy):
        fields = [(name, numpy_dtype(fty)) for name, fty in ty.fields]
        if any(dt is None for _, dt in fields):
            return None
        return np.dtype(fields, align=True)
    if isinstance(ty, T.ArrayTy):
        elem = numpy_dtype(ty.elem)
        return None if elem is None else np.dtype((elem, (ty.length,)))
    return NUMPY_DTYPES.get(ty)


def bf16_bits(x) -> np.ndarray:
    """float values -> bf16 bits (uint16), rounded once to nearest even; NaN -> 0x7FFF."""
    f = np.asarray(x, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return np.where(np.isnan(f), 0x7FFF, rounded).astype(np.uint16)


def bf16_values(bits) -> np.ndarray:
    """bf16 bits (uint16) -> their exact values as float32."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def ctype_of(ty: T.Ty) -> type | None:
    return CTYPES.get(ty)


def int_range(ty: T.IntTy) -> tuple[int, int]:
    """Inclusive (min, max) of an integer type."""
    if ty.signed:
        return -(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1
    return 0, (1 << ty.bits) - 1


def rust_name(dtype: np.dtype) -> str | None:
    """f32 for float32 (the canonical name; int64 -> i64, not isize)."""
    for ty, dt, _ in _TABLE:
        if dt == dtype and not getattr(ty, "pointer_sized", False):
            return str(ty)
    return None


def parse_scalar_type(name: str) -> T.Ty | None:
    """`f32`, `usize`, ... -> the type; None when not a scalar type name."""
    return T.SCALARS.get(name)
