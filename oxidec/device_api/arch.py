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
                  "clc": "`clc` (cluster launch control)"}


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
    last = names[-1] if names else ""
    for prefix in BLACKWELL_PREFIXES:
        if last.startswith(prefix):
            return prefix.rstrip("_")
    return None
