"""`cuda_device::convert`'s fp8 (and tf32) conversions (sm_89+: the H200 has them): pairs of 8-bit
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

# f32 -> tf32 (an f32 with 10 significand bits, the low 13 bits zero, in a u32): rna (ties
# away from zero, sm_80), rn / rz (sm_90), relu (negative: +0), satfinite (beyond the
# largest finite tf32, infinities too: that value with the sign)
for _name, _ptx, _sm in (("cvt_rna_tf32_f32", "cvt.rna.tf32.f32", 80),
                         ("cvt_rna_satfinite_tf32_f32", "cvt.rna.satfinite.tf32.f32", 80),
                         *((f"cvt_{m}{r}_tf32_f32", f"cvt.{m}{r.replace('_', '.')}.tf32.f32", 90)
                           for m in ("rn", "rz") for r in ("", "_relu"))):
    CONVERSIONS[_name] = (_ptx, "tf32")
TF32_SM = {"cvt.rna.tf32.f32": 80, "cvt.rna.satfinite.tf32.f32": 80}

_SIG = {"f32": (("f32", "f32"), "u16"), "f16x2": (("u32",), "u16"), "fp8x2": (("u16",), "u32"),
        "tf32": (("f32",), "u32")}


def _sm(name: str, src: str) -> int:
    return TF32_SM.get(name, 90) if src == "tf32" else 89


def ops() -> list[Op]:
    return [Op(name, _SIG[src][1], min_sm=_sm(name, src), doc=f"`{name}` (device_api/fp8.py)")
            for name, src in CONVERSIONS.values()]


FNS = [ApiFn(f"convert::{api}", *_SIG[src], op(name), min_sm=_sm(name, src))
       for api, (name, src) in CONVERSIONS.items()]
