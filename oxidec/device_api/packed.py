"""`cuda_device::f16x2`, `bf16x2` and `convert`: packed pairs of half floats in a `u32`
(and `cuda_device::f16` / `bf16`: min/max of one half's bits in a `u16`)
(the first / `lo` value in the low 16 bits), and `tcgen05::cvt_f32x2_bf16x2` (the one
non-Blackwell item of that module: an f32 pair to a bf16x2).

Each operation is one PTX instruction on `.b32` registers; its MIR `Intrinsic` is named
after the instruction (`add.rn.f16x2`, `cvt.rz.bf16x2.f32`), and the simulator computes it
lane by lane in float64 with one rounding to the half format (oxidec/sim/packed.py).
Unpacking (`cvt_f32_f16x2_lo`, ...) is exact.
"""
from __future__ import annotations

from .model import ApiFn, Op, hook, op

# API name (module, fn) -> (PTX instruction, number of u32 operands, minimum sm)
ARITH: dict[tuple[str, str], tuple[str, int, int]] = {}
for _k in ("add", "sub", "mul"):
    ARITH[("f16x2", f"{_k}_f16x2")] = (f"{_k}.rn.f16x2", 2, 70)
    ARITH[("bf16x2", f"{_k}_bf16x2")] = (f"{_k}.rn.bf16x2", 2, 90)
for _k in ("neg", "abs"):
    ARITH[("f16x2", f"{_k}_f16x2")] = (f"{_k}.f16x2", 1, 70)
    ARITH[("bf16x2", f"{_k}_bf16x2")] = (f"{_k}.bf16x2", 1, 80)
for _suffix, _mods, _sm in (("", "", 70), ("_ftz", ".ftz", 70), ("_sat", ".sat", 70),
                            ("_ftz_sat", ".ftz.sat", 70), ("_relu", ".relu", 80),
                            ("_ftz_relu", ".ftz.relu", 80)):
    ARITH[("f16x2", f"fma{_suffix}_f16x2")] = (f"fma.rn{_mods}.f16x2", 3, _sm)
ARITH[("bf16x2", "fma_bf16x2")] = ("fma.rn.bf16x2", 3, 80)
ARITH[("bf16x2", "fma_relu_bf16x2")] = ("fma.rn.relu.bf16x2", 3, 80)
for _k in ("max", "min"):
    for _suffix, _mods in (("", ""), ("_ftz", ".ftz"), ("_nan", ".NaN"), ("_ftz_nan", ".ftz.NaN")):
        ARITH[("f16x2", f"{_k}{_suffix}_f16x2")] = (f"{_k}{_mods}.f16x2", 2, 80)
    for _suffix, _mods in (("", ""), ("_nan", ".NaN")):
        ARITH[("bf16x2", f"{_k}{_suffix}_bf16x2")] = (f"{_k}{_mods}.bf16x2", 2, 80)

# `cuda_device::f16` / `bf16`: scalar min/max on a half's bits in a u16 (sm_80):
# (module, fn) -> PTX instruction on .b16 registers
SCALAR: dict[tuple[str, str], str] = {}
for _k in ("max", "min"):
    for _suffix, _mods in (("", ""), ("_ftz", ".ftz"), ("_nan", ".NaN"), ("_ftz_nan", ".ftz.NaN")):
        SCALAR[("f16", f"{_k}{_suffix}_f16")] = f"{_k}{_mods}.f16"
    for _suffix, _mods in (("", ""), ("_nan", ".NaN")):
        SCALAR[("bf16", f"{_k}{_suffix}_bf16")] = f"{_k}{_mods}.bf16"

# `.xorsign.abs` (sm_86): max/min of the magnitudes, the sign the XOR of the operands' signs
XORSIGN: dict[tuple[str, str], str] = {}
for _k in ("max", "min"):
    for _t, _mods in (("f16", (("", ""), ("_ftz", ".ftz"), ("_nan", ".NaN"),
                               ("_ftz_nan", ".ftz.NaN"))),
                      ("bf16", (("", ""), ("_nan", ".NaN")))):
        for _suffix, _m in _mods:
            XORSIGN[(_t, f"{_k}{_suffix}_xorsign_abs_{_t}")] = f"{_k}{_m}.xorsign.abs.{_t}"
            XORSIGN[(f"{_t}x2", f"{_k}{_suffix}_xorsign_abs_{_t}x2")] = \
                f"{_k}{_m}.xorsign.abs.{_t}x2"

# f32 pair (lo, hi) -> packed: (module, fn) -> PTX instruction
PACK = {
    ("convert", "cvt_f16x2_f32"): "cvt.rn.f16x2.f32",
    ("convert", "cvt_rn_relu_f16x2_f32"): "cvt.rn.relu.f16x2.f32",
    ("convert", "cvt_rn_relu_bf16x2_f32"): "cvt.rn.relu.bf16x2.f32",
    ("convert", "cvt_rz_f16x2_f32"): "cvt.rz.f16x2.f32",
    ("convert", "cvt_rz_bf16x2_f32"): "cvt.rz.bf16x2.f32",
    ("tcgen05", "cvt_f32x2_bf16x2"): "cvt.rn.bf16x2.f32",
}
# packed -> f32: the low or high half
UNPACK = {f"unpack.{fmt}.{half}": fmt for fmt in ("f16", "bf16") for half in ("lo", "hi")}


def ops() -> list[Op]:
    rows = [Op(name, "u32", min_sm=sm, doc=f"`{name}` on packed halves")
            for name, _, sm in ARITH.values()]
    rows += [Op(name, "u32", min_sm=80, doc="(lo: f32, hi: f32) -> packed")
             for name in PACK.values()]
    rows += [Op(name, "f32", doc="one half of a packed pair, exactly as f32")
             for name in UNPACK]
    rows += [Op(name, "u16", min_sm=80, doc=f"`{name}` on a half's bits (u16)")
             for name in SCALAR.values()]
    rows += [Op(name, "u32" if name.endswith("x2") else "u16", min_sm=86,
                doc=f"`{name}`: magnitudes, the XOR of the signs")
             for name in XORSIGN.values()]
    return rows


FNS = [
    *(ApiFn(f"{mod}::{fn}", ("u32",) * n, "u32", op(name), min_sm=max(sm, 80))
      for (mod, fn), (name, n, sm) in ARITH.items()),
    *(ApiFn(f"{mod}::{fn}", ("f32", "f32"), "u32", op(name), min_sm=80)
      for (mod, fn), name in PACK.items()),
    *(ApiFn(f"convert::cvt_f32_{fmt}x2_{half}", ("u32",), "f32", op(f"unpack.{fmt}.{half}"))
      for fmt in ("f16", "bf16") for half in ("lo", "hi")),
    *(ApiFn(f"convert::cvt_f32x2_{fmt}x2", ("u32",), "(f32, f32)", hook("unpack_pair"))
      for fmt in ("f16", "bf16")),
    *(ApiFn(f"{mod}::{fn}", ("u16", "u16"), "u16", op(name), min_sm=80)
      for (mod, fn), name in SCALAR.items()),
    *(ApiFn(f"{mod}::{fn}", ("u32", "u32") if mod.endswith("x2") else ("u16", "u16"),
            "u32" if mod.endswith("x2") else "u16", op(name), min_sm=86)
      for (mod, fn), name in XORSIGN.items()),
]
