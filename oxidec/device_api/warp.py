"""`cuda_device::warp`: lane and warp ids, lane masks, shuffles, votes, reductions.

The mask-less forms act on the full warp (mask 0xffffffff), as cuda-oxide's wrappers do.
"""
from __future__ import annotations

from .model import ApiFn, op
from .ops import REDUX

# Shuffles exist for these value types (`shuffle_xor_f32` ... `_u64`): (value, lane or
# delta: u32) -> value. A shuffle moves one 32-bit register (64-bit values as two).
SHUFFLES = ("shuffle_xor", "shuffle_down", "shuffle_up", "shuffle")
SHUFFLE_TYPES = ("f32", "u32", "i32", "f64", "u64")

FNS = [
    ApiFn("warp::lane_id", (), "u32", op("laneid")),
    ApiFn("warp::warp_id", (), "u32", op("warpid")),
    *(ApiFn(f"warp::lanemask_{k}", (), "u32", op(f"lanemask_{k}"))
      for k in ("lt", "le", "eq", "ge", "gt")),
    *(ApiFn(f"warp::{mode}_{t}", (t, "u32"), t, op(mode))
      for mode in SHUFFLES for t in SHUFFLE_TYPES),
    ApiFn("warp::ballot", ("bool",), "u32", op("ballot")),
    ApiFn("warp::any", ("bool",), "bool", op("any")),
    ApiFn("warp::all", ("bool",), "bool", op("all")),
    ApiFn("warp::active_mask", (), "u32", op("active_mask")),
    *(ApiFn(f"warp::redux_sync_{k}", ("u32",), "u32", op(f"redux_sync_{k}")) for k in REDUX),
]
