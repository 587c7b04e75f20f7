"""The simulator's `brev`, `bswap`, `mul_hi` and `rint` (see ptx/int_bits.py): on lane
vectors of the operand's dtype, with the PTX instructions' results bit for bit."""
from __future__ import annotations

import numpy as np

from .ops import unsigned_view

_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def brev(x, args, arg_tys, result_ty):
    a = np.ascontiguousarray(args[0])
    by = unsigned_view(a).view(np.uint8).reshape(a.shape + (a.dtype.itemsize,))
    return np.ascontiguousarray(_REV8[by][..., ::-1]).view(a.dtype).reshape(a.shape)


def bswap(x, args, arg_tys, result_ty):
    return np.ascontiguousarray(args[0]).byteswap()


def mul_hi(x, args, arg_tys, result_ty):
    """High half of the double-width product: 32-bit limbs for 64-bit operands."""
    a, b = args
    b = b.astype(a.dtype)
    if a.dtype.itemsize < 8:
        wide = np.int64 if a.dtype.kind == "i" else np.uint64
        return ((a.astype(wide) * b.astype(wide)) >> (8 * a.dtype.itemsize)).astype(a.dtype)
    u, v = unsigned_view(a).astype(np.uint64), unsigned_view(b).astype(np.uint64)
    m32 = np.uint64(0xFFFF_FFFF)
    s32 = np.uint64(32)
    ul, uh, vl, vh = u & m32, u >> s32, v & m32, v >> s32
    ll, lh, hl, hh = ul * vl, ul * vh, uh * vl, uh * vh
    mid = (ll >> s32) + (lh & m32) + (hl & m32)
    hi = hh + (lh >> s32) + (hl >> s32) + (mid >> s32)
    if a.dtype.kind == "i":  # signed: subtract b for negative a and a for negative b
        hi = hi - np.where(a < 0, v, 0).astype(np.uint64) - np.where(b < 0, u, 0).astype(
            np.uint64)
    return hi.view(a.dtype)


def rint(x, args, arg_tys, result_ty):
    return np.rint(args[0])  # half to even, as cvt.rni


INT_BITS = {"brev": brev, "bswap": bswap, "mul_hi": mul_hi, "rint": rint}
