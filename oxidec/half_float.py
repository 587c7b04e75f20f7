"""f16 / bf16 values as Python floats and as their 16 bits: the one rounding every phase
uses for a half constant (literals, const evaluation, immediates, host arguments)."""
from __future__ import annotations

import math
import struct

from .types import FloatTy, float_format, float_max


def round_half(value: float, ty: FloatTy) -> float:
    """The f16 / bf16 nearest a Python float (ties to even, subnormals kept, overflow ->
    inf), as a Python float (exact)."""
    value = float(value)
    if not math.isfinite(value) or value == 0:
        return value
    p, emin, emax = float_format(ty)
    e = max(math.frexp(value)[1] - 1, emin)  # the binade (subnormals: emin's quantum)
    if e > emax:
        return math.copysign(math.inf, value)
    ulp = math.ldexp(1.0, e - (p - 1))
    r = round(value / ulp) * ulp  # exact division by a power of two; round: ties to even
    return math.copysign(math.inf, value) if abs(r) > float_max(ty) else math.copysign(r, value)


def half_bits(value: float, ty: FloatTy) -> int:
    """The 16 bits of `value` rounded to the half `ty`; a NaN is the canonical NaN 0x7FFF."""
    value = round_half(value, ty)
    if math.isnan(value):
        return 0x7FFF
    if ty.brain:
        return struct.unpack("<I", struct.pack("<f", value))[0] >> 16
    return struct.unpack("<H", struct.pack("<e", value))[0]
