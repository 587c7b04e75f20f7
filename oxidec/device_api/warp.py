"""`cuda_device::warp`: lane and warp ids, lane masks, shuffles, votes, matches, reductions.

The `*_sync(mask, ..)` forms take the member mask first: the lanes that take part, all of
which (and no others) must execute the call together. The mask-less forms act on the full
warp (mask 0xffffffff), as cuda-oxide's wrappers do. `reduce_*` are library code in
cuda-oxide: here lowering hooks that expand to the shuffles (lower/warp_api.py).
"""
from __future__ import annotations

from .model import ApiFn, hook, op
from .ops import SHUFFLE_OPS

# Shuffles exist for these value types: (value, lane or delta: u32) -> value. A shuffle
# moves one 32-bit register (64-bit values as two). cuda-oxide spells the u32 ones without
# a suffix (`shuffle_xor`, `shuffle_xor_sync`); oxidec also has `shuffle_xor_u32`.
SHUFFLES = SHUFFLE_OPS
SHUFFLE_TYPES = ("f32", "u32", "i32", "f64", "u64")
REDUCE_OPS = ("sum", "max", "min")
REDUCE_TYPES = ("f32", "f64")


def _shuffles() -> list[ApiFn]:
    fns = []
    for mode in SHUFFLES:
        for t in SHUFFLE_TYPES:
            fns.append(ApiFn(f"warp::{mode}_{t}", (t, "u32"), t, op(mode)))
            fns.append(ApiFn(f"warp::{mode}_{t}_sync", ("u32", t, "u32"), t, op(f"{mode}_sync")))
        fns.append(ApiFn(f"warp::{mode}", ("u32", "u32"), "u32", op(mode)))
        fns.append(ApiFn(f"warp::{mode}_sync", ("u32", "u32", "u32"), "u32", op(f"{mode}_sync")))
    return fns


def _reductions() -> list[ApiFn]:
    fns = [ApiFn("warp::redux_sync_add", ("u32", "u32"), "u32", op("redux_sync_add"),
                 min_sm=80)]
    for k in ("min", "max"):
        fns += [ApiFn(f"warp::redux_sync_{k}_{t}", ("u32", t), t, op(f"redux_sync_{k}"),
                      min_sm=80) for t in ("u32", "i32")]
    fns += [ApiFn(f"warp::redux_sync_{k}", ("u32", "u32"), "u32", op(f"redux_sync_{k}"),
                  min_sm=80) for k in ("and", "or", "xor")]
    for k in REDUCE_OPS:
        for t in REDUCE_TYPES:
            fns.append(ApiFn(f"warp::reduce_{k}_{t}", (t,), t, hook("warp_reduce")))
            fns.append(ApiFn(f"warp::reduce_{k}_{t}_partial", (t, "u32"), t,
                             hook("warp_reduce_partial")))
    return fns


FNS = [
    ApiFn("warp::lane_id", (), "u32", op("laneid"), aliases=("sreg::lane_id",)),
    ApiFn("warp::warp_id", (), "u32", op("warpid")),
    ApiFn("warp::warpid", (), "u32", op("hw_warpid"), aliases=("sreg::warpid",)),
    ApiFn("warp::nwarpid", (), "u32", op("hw_nwarpid"), aliases=("sreg::nwarpid",)),
    *(ApiFn(f"warp::lanemask_{k}", (), "u32", op(f"lanemask_{k}"),
            aliases=(f"sreg::lanemask_{k}",))
      for k in ("lt", "le", "eq", "ge", "gt")),
    *_shuffles(),
    ApiFn("warp::ballot", ("bool",), "u32", op("ballot")),
    ApiFn("warp::any", ("bool",), "bool", op("any")),
    ApiFn("warp::all", ("bool",), "bool", op("all")),
    ApiFn("warp::popc", ("bool",), "u32", hook("warp_popc")),
    ApiFn("warp::ballot_sync", ("u32", "bool"), "u32", op("ballot_sync")),
    ApiFn("warp::any_sync", ("u32", "bool"), "bool", op("any_sync")),
    ApiFn("warp::all_sync", ("u32", "bool"), "bool", op("all_sync")),
    # true when the predicate is the same in every lane of the mask (`vote.sync.uni`)
    ApiFn("warp::uni_sync", ("u32", "bool"), "bool", op("uni_sync")),
    ApiFn("warp::active_mask", (), "u32", op("active_mask")),
    ApiFn("warp::sync_mask", ("u32",), "()", op("warp_sync")),
    ApiFn("warp::match_any_sync", ("u32", "u32"), "u32", op("match_any_sync"), min_sm=70),
    ApiFn("warp::match_any_i64_sync", ("u32", "u64"), "u32", op("match_any_sync"), min_sm=70),
    ApiFn("warp::match_all_sync", ("u32", "u32"), "u32", op("match_all_sync"), min_sm=70),
    ApiFn("warp::match_all_i64_sync", ("u32", "u64"), "u32", op("match_all_sync"), min_sm=70),
    *_reductions(),
    ApiFn("warp::elect_sync", ("u32",), "(u32, bool)", op("elect_sync"), min_sm=90),
    ApiFn("warp::is_elected_sync", ("u32",), "bool", hook("is_elected_sync"), min_sm=90),
    ApiFn("warp::live_lanes_1d", (), "u32", hook("live_lanes_1d")),
]
