"""fp8 pair conversions on the simulator (device_api/fp8.py): decode to exact float64,
round once to nearest even (packed.round_to, with the fp8 formats), then `satfinite`
(beyond the largest finite value, infinities too: that value with the sign), `relu`
(a negative input, -0 too: +0), and encode; widening to f16 is exact. NaN: e4m3 0x7f, e5m2 0x7f, f16 0x7fff.
"""
from __future__ import annotations

import numpy as np

from ..device_api.fp8 import CONVERSIONS
from . import packed  # (its names are read at run time: packed imports intrinsics, which
#                       imports this module)

FP8_NAN = np.uint8(0x7F)


def decode(bits: np.ndarray, fmt: str) -> np.ndarray:
    """fp8 bits (uint8) -> exact float64 values."""
    b = bits.astype(np.int64)
    sign = np.where(b & 0x80, -1.0, 1.0)
    if fmt == "e5m2":  # the top byte of an f16
        v = packed.decode((b << 8).astype(np.uint16), "f16")
        return np.where((b & 0x7F) > 0x7C, np.nan, v)
    e, m = (b >> 3) & 0xF, b & 7
    v = np.where(e == 0, m * 2.0 ** -9, (1 + m / 8.0) * np.exp2(e - 7.0))
    return np.where((b & 0x7F) == 0x7F, np.nan, sign * v)


def encode(v: np.ndarray, fmt: str) -> np.ndarray:
    """Exact, finite fp8 values (float64; NaN allowed) -> bits."""
    with np.errstate(all="ignore"):
        if fmt == "e5m2":
            bits = (v.astype(np.float16).view(np.uint16) >> np.uint16(8)).astype(np.uint8)
        else:
            a = np.abs(v)
            e = np.floor(np.log2(np.where(a > 0, a, 1.0)))
            normal = a >= 2.0 ** -6
            field = np.where(normal, ((e + 7) * 8 + (a / np.exp2(e) - 1) * 8),
                             a / 2.0 ** -9)
            bits = (np.nan_to_num(field).astype(np.int64) | np.where(np.signbit(v), 0x80, 0))
            bits = bits.astype(np.uint8)
    return np.where(np.isnan(v), FP8_NAN, bits)


def narrow(x: np.ndarray, fmt: str, relu: bool) -> np.ndarray:
    top = packed.FORMATS[fmt][2]
    r = packed.round_to(np.asarray(x, dtype=np.float64), fmt)
    r = np.where(np.isnan(r), r, np.clip(r, -top, top))  # satfinite (infinities too)
    if relu:  # a negative input (its result rounded to -0 too) and -0 give +0
        r = np.where(np.signbit(x) & ~np.isnan(x), 0.0, r)
    return encode(r, fmt)


def tf32(x: np.ndarray, name: str) -> np.ndarray:
    """f32 -> tf32 bits as the H200 computes them (read off ptxas's SASS for sm_90).

    rna (no tf32 rounding instruction: integer arithmetic on the bits): add 0x1000 unless the
    exponent is all ones (inf, NaN), then clear the low 13 bits, so a NaN keeps its sign and
    top payload bits (one whose payload is all in the low 13 bits becomes an infinity);
    rna.satfinite: then an all-ones exponent (inf, NaN) steps one tf32 ulp down
    (inf -> 0x7f7fe000, NaN 0x7fc00000 -> 0x7fbfe000).
    rn / rz (F2FP.TF32, a real conversion): rounds to nearest even / toward zero; any NaN
    gives the canonical NaN with the low 13 bits clear, 0x7fffe000; relu: a negative
    non-NaN input (-0 too) gives +0."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    special = (bits & np.uint64(0x7F80_0000)) == np.uint64(0x7F80_0000)
    low = np.uint64(0xFFFF_E000)
    if ".rna" in name:
        out = np.where(special, bits, bits + np.uint64(0x1000)) & low
        if ".satfinite" in name:
            special = (out & np.uint64(0x7F80_0000)) == np.uint64(0x7F80_0000)
            out = np.where(special, out - np.uint64(0x2000), out)
        return out.astype(np.uint32)
    sign, mag = bits & np.uint64(0x8000_0000), bits & np.uint64(0x7FFF_FFFF)
    rounded = mag
    if ".rn" in name:
        rounded = mag + np.uint64(0xFFF) + ((mag >> np.uint64(13)) & np.uint64(1))
    out = sign | np.where(special, mag, rounded & low)
    if ".relu" in name:
        out = np.where(sign != 0, np.uint64(0), out)
    nan = special & ((bits & np.uint64(0x7F_FFFF)) != 0)
    return np.where(nan, np.uint64(0x7FFF_E000), out).astype(np.uint32)


def _impl(name: str, src: str):
    if src == "tf32":
        return lambda x, args, arg_tys, result_ty: tf32(args[0], name)
    parts = name.split(".")
    relu = "relu" in parts
    fmt = next(p for p in parts if p in ("e4m3x2", "e5m2x2"))[:4]

    def fn(x, args, arg_tys, result_ty):
        if src == "fp8x2":
            b = np.asarray(args[0]).astype(np.uint16)
            vals = [decode((b >> np.uint16(k)).astype(np.uint8), fmt) for k in (0, 8)]
            if relu:
                vals = [np.where(np.signbit(v) & ~np.isnan(v), 0.0, v) for v in vals]
            return packed.join(*(packed.encode(v, "f16") for v in vals))
        if src == "f32":
            lo, hi = (np.asarray(a, dtype=np.float64) for a in args)
        else:
            lo, hi = (packed.decode(h, "f16") for h in packed.halves(np.asarray(args[0])))
        return (narrow(lo, fmt, relu).astype(np.uint16)
                | (narrow(hi, fmt, relu).astype(np.uint16) << np.uint16(8)))
    return fn


INTRINSICS = {name: _impl(name, src) for name, src in CONVERSIONS.values()}
