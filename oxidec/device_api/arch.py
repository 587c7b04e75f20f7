"""Architectures: the minimum sm of an item, and the Blackwell-only parts of the API.

oxidec targets sm_80 .. sm_90 (driver.ARCHES). An item with `min_sm` above the target is an
error that names the target and the `--arch` that builds it; the Blackwell modules
(`tcgen05`, cluster launch control `clc`) need sm_100, which oxidec does not target, and get
one error that says so.
"""
from __future__ import annotations

BLACKWELL_MODULES = ("tcgen05", "clc")
BLACKWELL_PREFIXES = ("tcgen05_", "clc_")
BLACKWELL_WHAT = {"tcgen05": "`tcgen05` (the 5th-generation tensor cores)",
                  "clc": "`clc` (cluster launch control)",
                  "f8f6f4": "`mma.sync ... kind::f8f6f4` (fp4/fp6 operands: e2m1, e2m3, e3m2)",
                  "tf32_satfinite": "`cvt ... satfinite.tf32.f32`"}
# Warp-MMA and conversion names of Blackwell-only formats: fp4 (e2m1), fp6 (e2m3, e3m2), and
# anything `kind::f8f6f4` (the reference's `mma_m16n8k32_f32_e4m3_e2m1`, ...).
FP4_FP6 = ("e2m1", "e2m3", "e3m2", "f8f6f4")


def sm_number(arch: str) -> int:
    """`sm_80` -> 80, `sm_90a` -> 90."""
    return int(arch.removeprefix("sm_").rstrip("abf"))


def arch_name(sm: int) -> str:
    return f"sm_{sm}"


# Items of the Blackwell modules that run on sm_80 .. sm_90 (plain conversions).
NOT_BLACKWELL = ("cvt_f32x2_bf16x2", "stmatrix_m8n8_x2", "stmatrix_m8n8_x2_trans",
                 "stmatrix_m8n8_x4", "stmatrix_m8n8_x4_trans")  # stmatrix: sm_90


def blackwell_family(names: tuple[str, ...]) -> str | None:
    """`tcgen05` or `clc` when a path names a Blackwell-only module or intrinsic."""
    if names and names[-1] in NOT_BLACKWELL:
        return None
    for n in names:
        if n in BLACKWELL_MODULES:
            return n
        if n.startswith("Tcgen05"):  # its types: `Tcgen05SmemDescriptor::builder()`, ..
            return "tcgen05"
    last = names[-1] if names else ""
    if any(f in last for f in FP4_FP6):
        return "f8f6f4"
    if last.startswith("cvt_") and "satfinite_tf32" in last:
        return "tf32_satfinite"
    for prefix in BLACKWELL_PREFIXES:
        if last.startswith(prefix):
            return prefix.rstrip("_")
    return None
