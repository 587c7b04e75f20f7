"""Warp collectives with a member mask: `shfl.sync`, `vote.sync`, `match.sync`,
`redux.sync`, `elect.sync`, `bar.warp.sync`. The mask is the first MIR operand (the
registry's rows with `sync="mask"`); the mask-less forms (ptx/intrinsics.py) pass the full
mask, -1."""
from __future__ import annotations

from ..mir import syntax as mir
from ..types import BOOL, U32, IntTy
from . import legalize
from .instrs import SHUFFLE_MODES, VOTES, instr
from .places import Val
from .types import PtxEmitError, arith, leaf_types, reg_class

FULL_MASK = "-1"


def _mask(em, op: mir.Operand) -> str:
    return em.scalar(em.operand(op)).text


def _dst(em, ty, hint) -> str:
    return hint[0] if hint else em.tmp(ty)


def _leaf(ty):
    leaves = leaf_types(ty)
    if len(leaves) != 1:
        raise PtxEmitError(f"a warp collective cannot produce `{ty}`")
    return leaves[0]


def shuffle_value(em, mode: str, clamp: int, v: Val, lane: Val, mask: str, ty,
                  hint) -> list[Val]:
    leaf = _leaf(ty)
    v = em.as_reg(v)
    dst = _dst(em, leaf, hint)
    if reg_class(v.ty).name not in ("b64", "f64"):
        em.emit(instr(f"shfl.sync.{mode}.b32", dst, v.text, lane.text, str(clamp), mask))
        return [Val(dst, leaf)]
    lo, hi = em.tmp(U32), em.tmp(U32)
    em.emit(instr("mov.b64", f"{{{lo}, {hi}}}", v.text))
    for half in (lo, hi):
        em.emit(instr(f"shfl.sync.{mode}.b32", half, half, lane.text, str(clamp), mask))
    em.emit(instr("mov.b64", dst, f"{{{lo}, {hi}}}"))
    return [Val(dst, leaf)]


def shuffle_sync(em, rv, ty, hint) -> list[Val]:
    """`shuffle_xor_sync(mask, v, lane_mask)` and the other modes."""
    mask = _mask(em, rv.args[0])
    v, lane = (em.scalar(em.operand(a)) for a in rv.args[1:])
    mode, clamp = SHUFFLE_MODES[rv.name.removesuffix("_sync")]
    return shuffle_value(em, mode, clamp, v, lane, mask, ty, hint)


def vote_sync(em, rv, ty, hint) -> list[Val]:
    mask = _mask(em, rv.args[0])
    p = em.scalar(em.operand(rv.args[1]))
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    em.emit(instr(VOTES[rv.name.removesuffix("_sync")], dst, legalize.pred(em, p), mask))
    return [Val(dst, leaf)]


def match_sync(em, rv, ty, hint) -> list[Val]:
    """`match.any.sync` / `match.all.sync` (sm_70) on a 32- or 64-bit value."""
    mask = _mask(em, rv.args[0])
    v = em.as_reg(em.scalar(em.operand(rv.args[1])))
    kind = rv.name.removeprefix("match_").removesuffix("_sync")
    bits = 64 if reg_class(v.ty).name in ("b64", "f64") else 32
    dst = _dst(em, U32, hint)
    em.emit(instr(f"match.{kind}.sync.b{bits}", dst, v.text, mask))
    return [Val(dst, U32)]


def redux(em, rv, ty, hint) -> list[Val]:
    """`redux_sync_<op>(mask, v)` (sm_80): add/min/max signed or unsigned by the value's
    type, and/or/xor bitwise."""
    mask = _mask(em, rv.args[0])
    v = em.scalar(em.operand(rv.args[1]))
    op = rv.name.removeprefix("redux_sync_")
    if not (isinstance(v.ty, IntTy) and v.ty.bits == 32):
        raise PtxEmitError(f"{rv.name} takes a 32-bit integer")
    v = em.as_reg(v)
    dst = _dst(em, v.ty, hint)
    suffix = "b32" if op in ("and", "or", "xor") else arith(v.ty)
    em.emit(instr(f"redux.sync.{op}.{suffix}", dst, v.text, mask))
    return [Val(dst, v.ty)]


def elect_sync(em, rv, ty, hint) -> list[Val]:
    """`elect_sync(mask) -> (leader lane, is this lane the leader)` (sm_90)."""
    mask = _mask(em, rv.args[0])
    em.module.min_version = max(em.module.min_version, "8.0", key=float)  # PTX ISA 8.0
    leader = hint[0] if hint and len(hint) == 2 else em.tmp(U32)
    me = hint[1] if hint and len(hint) == 2 else em.tmp(BOOL)
    em.emit(instr("elect.sync", f"{leader}|{me}", mask))
    return [Val(leader, U32), Val(me, BOOL)]


def warp_sync(em, stmt: mir.Effect) -> None:
    """`warp::sync_mask(mask)`: `bar.warp.sync mask` (__syncwarp)."""
    em.emit(instr("bar.warp.sync", _mask(em, stmt.args[0])))


MASKED = {
    **{f"{n}_sync": shuffle_sync for n in SHUFFLE_MODES},
    **{f"{n}_sync": vote_sync for n in VOTES},
    "match_any_sync": match_sync, "match_all_sync": match_sync,
    **{f"redux_sync_{k}": redux for k in ("add", "min", "max", "and", "or", "xor")},
    "elect_sync": elect_sync,
}
