"""`cuda_device::convert`'s fp8 conversions (sm_89+: the H200 has them): pairs of 8-bit
floats in a u16 (the first / `lo` value in the low byte), e4m3 (4 exponent bits, bias 7, no
infinities, largest 448) or e5m2 (5 exponent bits, bias 15, largest 57344):

    cvt_rn_satfinite[_relu]_{e4m3x2,e5m2x2}_f32(lo, hi) -> u16    cvt.rn.satfinite.e4m3x2.f32
    cvt_rn_satfinite[_relu]_{e4m3x2,e5m2x2}_f16x2(p: u32) -> u16  cvt.rn.satfinite.e4m3x2.f16x2
    cvt_rn[_relu]_f16x2_{e4m3x2,e5m2x2}(p: u16) -> u32            cvt.rn.f16x2.e4m3x2 (exact)

Narrowing rounds to nearest even once; `satfinite` clamps what lies beyond the largest
finite value (infinities too) to it, keeping the sign; `relu` makes negative results +0;
a NaN stays a NaN (the simulator: sim/fp8.py).
"""
from __future__ import annotations

from .model import ApiFn, Op, op

FP8 = ("e4m3", "e5m2")
# (API name) -> (PTX instruction, source kind: "f32" pair | "f16x2" | "fp8x2")
CONVERSIONS: dict[str, tuple[str, str]] = {}
for _f in FP8:
    for _relu in ("", "_relu"):
        _r = ".relu" if _relu else ""
        CONVERSIONS[f"cvt_rn_satfinite{_relu}_{_f}x2_f32"] = (
            f"cvt.rn.satfinite{_r}.{_f}x2.f32", "f32")
        CONVERSIONS[f"cvt_rn_satfinite{_relu}_{_f}x2_f16x2"] = (
            f"cvt.rn.satfinite{_r}.{_f}x2.f16x2", "f16x2")
        CONVERSIONS[f"cvt_rn{_relu}_f16x2_{_f}x2"] = (f"cvt.rn{_r}.f16x2.{_f}x2", "fp8x2")

_SIG = {"f32": (("f32", "f32"), "u16"), "f16x2": (("u32",), "u16"), "fp8x2": (("u16",), "u32")}


def ops() -> list[Op]:
    return [Op(name, _SIG[src][1], min_sm=89, doc=f"`{name}` (device_api/fp8.py)")
            for name, src in CONVERSIONS.values()]


FNS = [ApiFn(f"convert::{api}", *_SIG[src], op(name), min_sm=89)
       for api, (name, src) in CONVERSIONS.items()]
