"""Loop-invariant code motion: `licm(body)`.

An assignment inside a loop moves to the end of the loop's preheader when
- its rvalue is pure and cannot trap: an operator (a division or remainder only by a
  constant that is neither 0 nor -1), a cast, `Len` of a slice held in a local, the
  address of a static or of an element behind a pointer (`Ref` computes an address, it
  never loads), or an intrinsic that is not a warp collective (`mir.syntax`'s
  WARP_COLLECTIVES, which must stay in their control flow) and not `clock64`;
- every operand is invariant: a constant, or a local (or a field of one) that the loop
  never writes and whose address is never taken. A statement hoisted earlier in the same
  walk makes its local invariant, so chains move together;
- it writes a whole temporary (user variables stay, the computations they copy may move)
  that has no other write in the body and whose address is never taken. With
  definitely-initialised MIR every read of that local comes after its one
  write, every path to the write passes the preheader, and the operands cannot change
  between the preheader and the loop, so each read sees the same value as before. The
  rvalue may now run on an iteration (or a zero-trip entry) where it did not: that is why
  it must be pure and unable to trap.
Loads (`copy (*_1)[_5]`, shared memory, anything through a pointer) never move: a store,
an atomic, a barrier or another thread may change the memory between iterations, and a
load above its bounds check could fault. Effects, atomics and calls never move.

    bb1: {                                         bb4: {   // new preheader
        _5 = Lt(copy _4, copy _2);                     _6 = Mul(copy _1, copy _2);
        switchInt(copy _5) -> [0: bb3, otherwise: bb2];   _8 = Len(_3);
    }                                                  goto -> bb1;
    bb2: {                                 ->      }
        _6 = Mul(copy _1, copy _2);                bb2: {
        _7 = Add(copy _6, copy _4);                    _7 = Add(copy _6, copy _4);
        _8 = Len(_3);                                  _9 = Lt(copy _7, copy _8);
        _9 = Lt(copy _7, copy _8);                     ...
        ...

Loops are visited innermost first, so an expression invariant in two nested loops moves
out of the inner one first, then out of the outer one in the same call.
"""
from __future__ import annotations

from ..device_api.ops import VOLATILE
from ..mir.syntax import (
    WARP_COLLECTIVES, Assign, BinaryOp, Body, Cast, Constant, Deref, Intrinsic, Len, Ref,
    StaticRef, UnaryOp, Use,
)
from ..types import IntTy
from .dead_code import is_temporary
from ..mir.cfg import Dominators, has_cycle, predecessors
from .loops import LoopFacts, ensure_preheader, local_defs
from ..mir.visit import address_taken, has_deref, kept, kept_loops, rvalue_operands

IMPURE_INTRINSICS = WARP_COLLECTIVES | VOLATILE  # the registry's convergent and volatile ops


def licm(body: Body) -> bool:
    if not kept(body, has_cycle):  # no loop (cfg.has_cycle): nothing to do
        return False
    # The analyses are made once per run and stay right while loops are hoisted, innermost
    # first: hoisting moves statements from a loop L to its preheader P, which lies inside
    # every loop that holds L and outside every other loop; so a moved statement's old
    # site in `defs` (still in L's blocks) answers "written inside loop X?" the same way
    # for every loop X still to visit (loops inside L were visited before L), and the
    # number of each local's writes does not change. A new preheader P comes right before
    # L's header in reverse postorder (P's one successor is the header, which it now
    # stands in front of for every way into the loop), so P's place is just before it.
    #
    # A loop's walk skips the blocks of the loops inside it (visited before it): a
    # statement left in an inner loop L is not hoistable from a loop X around L either.
    # Whether a statement may move at all does not depend on the loop; it stayed in L
    # because an operand was written in L (or its address taken). Written more than once
    # or with its address taken, the operand is no more invariant in X. Written once, its
    # write dominates the read (definitely-initialised MIR), so it came earlier in the
    # walk; it was not hoisted either (else the operand would count as invariant), so by
    # induction over the walk it stays in L, inside X, and the operand is not invariant
    # in X. (Each block is walked once per run instead of once per loop around it.)
    # (kept: shared with the other passes while the body is unchanged; licm changes the
    # body only after it has them all)
    doms = kept(body, Dominators)
    defs = kept(body, local_defs)
    taken = kept(body, address_taken)
    place = {b: float(i) for i, b in enumerate(doms.order)}  # reverse postorder
    preds = None  # the body's predecessors, made at the first hoist and kept right
    changed = False
    for loop in kept(body, kept_loops):
        if loop.header == 0:
            continue
        moved = _hoistable_of(body, loop, defs, taken, place)
        if moved:
            if preds is None:
                preds = predecessors(body)
            count = len(body.blocks)
            pre = ensure_preheader(body, loop, preds)
            if len(body.blocks) > count:  # a new block: just before the header
                place[pre] = place[loop.header] - 0.5
            body.blocks[pre].statements.extend(moved)
            changed = True
    return changed


def _own_blocks(loop) -> list[int]:
    """The loop's blocks that are in no loop inside it."""
    blocks = loop.blocks
    forest = getattr(blocks, "forest", None)
    if forest is None:
        return list(blocks)
    return list(forest.own[loop.lo])


def _hoistable_of(body: Body, loop, defs, taken, place: dict[int, float]) -> list:
    """The statements to hoist out of the loop, taken out of its blocks, in order."""
    facts = LoopFacts(body, loop, defs, taken)
    order = sorted(_own_blocks(loop), key=place.__getitem__)
    moved = []
    for b in order:
        kept = []
        for stmt in body.blocks[b].statements:
            if _hoistable(body, stmt, facts, defs, taken):
                moved.append(stmt)
                facts.moved_out(stmt.place.local)  # now defined before the loop
            else:
                kept.append(stmt)
        if moved and len(kept) != len(body.blocks[b].statements):
            body.blocks[b].statements = kept
    return moved


def _hoistable(body: Body, stmt, facts: LoopFacts, defs, taken) -> bool:
    if not isinstance(stmt, Assign) or stmt.place.projection:
        return False
    local = stmt.place.local
    if local == 0 or local <= body.arg_count or local in taken or len(defs.get(local, ())) != 1:
        return False
    if not is_temporary(body, local):
        return False  # a user variable keeps its place (the temporary it copies may move)
    rv = stmt.rvalue
    if not speculatable(rv):
        return False
    if isinstance(rv, Len):
        return facts.invariant_local(rv.place.local)
    if isinstance(rv, Ref):
        return facts.invariant_local(rv.place.local) and all(
            facts.invariant_local(p.local) for p in rv.place.projection if hasattr(p, "local"))
    return all(facts.invariant_operand(op) for op in rvalue_operands(rv))


def speculatable(rv) -> bool:
    """Pure, cannot trap, and reads no memory: safe to run where it did not run before."""
    if isinstance(rv, Use):
        return isinstance(rv.operand, Constant) or not rv.operand.place.projection
    if isinstance(rv, BinaryOp):
        if rv.op in ("div", "rem"):
            d = rv.rhs
            return isinstance(d, Constant) and isinstance(d.ty, IntTy) and d.value not in (0, -1)
        return True
    if isinstance(rv, (UnaryOp, Cast, StaticRef)):
        return True
    if isinstance(rv, Len):
        proj = rv.place.projection
        return proj == () or proj == (Deref(),)
    if isinstance(rv, Ref):
        # the address of an element behind a pointer held in a local: arithmetic only
        return has_deref(rv.place) and isinstance(rv.place.projection[0], Deref) and all(
            not isinstance(p, Deref) for p in rv.place.projection[1:])
    if isinstance(rv, Intrinsic):
        return rv.name not in IMPURE_INTRINSICS
    return False


__all__ = ["licm", "speculatable"]
