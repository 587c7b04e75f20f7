"""The device API as cuda-oxide spells it: free functions and methods, with their types.

Typeck reads the signatures from here; lowering reads the `lowering` names. Keeping the
table in one place means a new intrinsic is one row, not edits across phases.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as T


@dataclass(frozen=True)
class ApiFn:
    path: str  # canonical path without the crate: "thread::index_1d"
    params: tuple[T.Ty, ...]
    ret: T.Ty
    intrinsic: str | None = None  # MIR Intrinsic name when the call is one pure intrinsic
    const_generics: int = 0  # number of const generic args (`index_2d::<16>`)
    unsafe: bool = False


def _special(prefix: str, reg: str) -> list[ApiFn]:
    return [ApiFn(f"thread::{prefix}_{axis}", (), T.U32, f"{reg}.{axis}") for axis in "xyz"]


API_FNS: dict[str, ApiFn] = {f.path: f for f in [
    *_special("threadIdx", "tid"), *_special("blockIdx", "ctaid"),
    *_special("blockDim", "ntid"), *_special("gridDim", "nctaid"),
    ApiFn("thread::index_1d", (), T.THREAD_INDEX),
    ApiFn("thread::index_2d", (), T.OptionTy(T.THREAD_INDEX), const_generics=1),
    ApiFn("thread::index_2d_row", (), T.USIZE),
    ApiFn("thread::index_2d_col", (), T.USIZE),
    ApiFn("thread::sync_threads", (), T.UNIT),
    ApiFn("warp::lane_id", (), T.U32, "laneid"),
    ApiFn("warp::warp_id", (), T.U32, "warpid"),
    ApiFn("debug::trap", (), T.NEVER),
]}

# Crate prefixes a user may write before an API path.
CRATES = ("cuda_device", "cuda_core")


def lookup_api(names: tuple[str, ...]) -> ApiFn | None:
    """Find an API function by the path the user wrote (`thread::index_1d`,
    `cuda_device::thread::index_1d`, or `index_1d` after `use cuda_device::thread::*`)."""
    while names and names[0] in CRATES:
        names = names[1:]
    key = "::".join(names)
    if key in API_FNS:
        return API_FNS[key]
    if len(names) == 1:
        matches = [f for p, f in API_FNS.items() if p.endswith("::" + names[0])]
        if len(matches) == 1:
            return matches[0]
    return None


def api_names() -> list[str]:
    return sorted(API_FNS)


# Methods on numbers: name -> (arity, result rule). "self" = same type as the receiver.
FLOAT_METHODS = {
    "sqrt": (0, "self", "sqrt"), "abs": (0, "self", "abs"), "floor": (0, "self", "floor"),
    "ceil": (0, "self", "ceil"), "round": (0, "self", "round"), "trunc": (0, "self", "trunc"),
    "min": (1, "self", "min"), "max": (1, "self", "max"), "mul_add": (2, "self", "fma"),
    "clamp": (2, "self", None), "is_nan": (0, "bool", None),
}
INT_METHODS = {
    "min": (1, "self", "min"), "max": (1, "self", "max"), "abs": (0, "self", "abs"),
    "count_ones": (0, "u32", "popc"), "leading_zeros": (0, "u32", "clz"),
    "trailing_zeros": (0, "u32", "ctz"), "clamp": (2, "self", None),
    "wrapping_add": (1, "self", "add"), "wrapping_sub": (1, "self", "sub"),
    "wrapping_mul": (1, "self", "mul"),
}
