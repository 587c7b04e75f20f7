"""The masked warp collectives (`*_sync(mask, ..)`, `match_*`, `redux_sync_*`, `elect_sync`,
`warp_sync`): their first operand is the member mask.

Every call first checks the rule the hardware states and does not enforce: in each warp,
each executing lane is in its mask, and the mask's lanes (those that exist in the launch)
execute the statement together, all naming the same mask (disjoint groups with masks of
their own, such as the tiles of a tiled partition, may run it at once). Anything else is
undefined on the GPU (a hang, or garbage), so the simulator stops with an error that names the warp and both sets.
A shuffle whose source lane is outside the mask (or out of range) gives the lane its own
value here (on the GPU the value is undefined: use it only where the source is valid).
"""
from __future__ import annotations

import numpy as np

from .errors import SimError
from .intrinsics import INTRINSICS, _ballot, _redux, _redux_add, _shuffle, intrinsic

LANE_BITS = np.uint64(1) << np.arange(32, dtype=np.uint64)


def check_mask(x, name: str, mask: np.ndarray) -> np.ndarray:
    """Stop unless every executing lane is in its own mask and the mask's existing lanes
    all execute the statement together, naming the same mask (the warp may run several
    such groups at once, as a tiled partition does); return the mask as u32."""
    mask = mask.astype(np.uint32)
    lanes = x.lanes
    executing = _ballot(x, np.ones(x.n, dtype=bool))
    size = x.warp_size[lanes].astype(np.uint64)
    existing = ((np.uint64(1) << size) - np.uint64(1)).astype(np.uint32)
    wid = x.warp_index[lanes]
    lid = x.lane_id[lanes].astype(np.uint32)
    table = np.zeros((x.nwarps, 32), dtype=np.uint32)
    table[wid, lid] = mask
    members = ((mask & existing)[:, None] >> np.arange(32, dtype=np.uint32)) & 1  # (n, 32)
    other = (members == 1) & (table[wid] != mask[:, None])
    bad = (((mask >> lid) & 1) == 0) | ((mask & existing & ~executing) != 0) | other.any(1)
    if bad.any():
        k = int(np.argmax(bad))
        thread, block = x.coords(int(lanes[k]))
        raise SimError(
            f"`{name}` with mask {int(mask[k]):#010x} is executed by the lanes "
            f"{int(executing[k]):#010x} of the warp of thread {thread} of block {block}: "
            "the lanes that execute a masked warp collective must be exactly its mask")
    return mask


def _in_mask(mask: np.ndarray, src: np.ndarray) -> np.ndarray:
    ok = (src >= 0) & (src < 32)
    bit = (mask.astype(np.int64) >> np.clip(src, 0, 31)) & 1
    return ok & (bit == 1)


def _masked_shuffle(name: str, source) -> None:
    def fn(x, args, arg_tys, result_ty):
        mask, value, b = args
        mask = check_mask(x, name, mask)
        lane = x.lane_id[x.lanes].astype(np.int64)
        src = source(lane, b.astype(np.int64) & 31)
        src = np.where(_in_mask(mask, src), src, -1)  # -1: the lane keeps its own value
        return _shuffle(x, value, src, np.zeros_like(lane), np.full_like(lane, 32))
    INTRINSICS[name] = fn


_masked_shuffle("shuffle_xor_sync", lambda lane, d: lane ^ d)
_masked_shuffle("shuffle_down_sync", lambda lane, d: lane + d)
_masked_shuffle("shuffle_up_sync", lambda lane, d: lane - d)
_masked_shuffle("shuffle_sync", lambda lane, d: d)


@intrinsic("ballot_sync")
def _ballot_sync(x, args, arg_tys, result_ty):
    mask = check_mask(x, "ballot_sync", args[0])
    return _ballot(x, args[1]) & mask


@intrinsic("any_sync")
def _any_sync(x, args, arg_tys, result_ty):
    mask = check_mask(x, "any_sync", args[0])
    return (_ballot(x, args[1]) & mask) != 0


@intrinsic("all_sync")
def _all_sync(x, args, arg_tys, result_ty):
    mask = check_mask(x, "all_sync", args[0])
    return (_ballot(x, args[1]) & mask) == (_ballot(x, np.ones(x.n, dtype=bool)) & mask)


@intrinsic("uni_sync")
def _uni_sync(x, args, arg_tys, result_ty):
    mask = check_mask(x, "uni_sync", args[0])
    ones = _ballot(x, args[1]) & mask
    return (ones == 0) | (ones == (_ballot(x, np.ones(x.n, dtype=bool)) & mask))


def _equal_lanes(x, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per active lane: which lanes (0..32) of its warp hold an equal value, and which
    lanes of its warp are active."""
    wid = x.warp_index[x.lanes]
    lane = x.lane_id[x.lanes]
    v = value.astype(np.uint64) if value.dtype.kind != "f" else value
    table = np.zeros((x.nwarps, 32), dtype=v.dtype)
    active = np.zeros((x.nwarps, 32), dtype=bool)
    table[wid, lane] = v
    active[wid, lane] = True
    return (table[wid] == v[:, None]) & active[wid], active[wid]


def _bits(rows: np.ndarray) -> np.ndarray:
    return (rows.astype(np.uint64) * LANE_BITS).sum(axis=1, dtype=np.uint64).astype(np.uint32)


@intrinsic("match_any_sync")
def _match_any(x, args, arg_tys, result_ty):
    mask = check_mask(x, "match_any_sync", args[0])
    equal, _ = _equal_lanes(x, args[1])
    return _bits(equal) & mask


@intrinsic("match_all_sync")
def _match_all(x, args, arg_tys, result_ty):
    mask = check_mask(x, "match_all_sync", args[0])
    equal, active = _equal_lanes(x, args[1])
    members = ((mask[:, None] >> np.arange(32, dtype=np.uint32)) & 1) == 1
    return np.where((equal | ~active | ~members).all(axis=1), mask, np.uint32(0))


def _masked_redux(name: str, impl) -> None:
    def fn(x, args, arg_tys, result_ty):
        check_mask(x, name, args[0])
        return impl(x, args[1:], arg_tys[1:], result_ty)
    INTRINSICS[name] = fn


_masked_redux("redux_sync_add", _redux_add)
_masked_redux("redux_sync_min", _redux(np.minimum, lambda dt: np.iinfo(dt).max))
_masked_redux("redux_sync_max", _redux(np.maximum, lambda dt: np.iinfo(dt).min))
_masked_redux("redux_sync_and", _redux(np.bitwise_and, lambda dt: dt.type(-1)
                                       if dt.kind == "i" else np.iinfo(dt).max))
_masked_redux("redux_sync_or", _redux(np.bitwise_or, lambda dt: 0))
_masked_redux("redux_sync_xor", _redux(np.bitwise_xor, lambda dt: 0))


@intrinsic("elect_sync")
def _elect(x, args, arg_tys, result_ty):
    """The leader is the lowest lane of the mask (what the hardware picks; PTX only
    promises one lane)."""
    mask = check_mask(x, "elect_sync", args[0])
    with np.errstate(over="ignore"):
        low = mask & (~mask + np.uint32(1))
    leader = np.log2(np.maximum(low, 1)).astype(np.uint32)
    return leader, x.lane_id[x.lanes].astype(np.uint32) == leader


@intrinsic("warp_sync")
def _warp_sync(x, args, arg_tys, result_ty):
    check_mask(x, "warp_sync", args[0])
