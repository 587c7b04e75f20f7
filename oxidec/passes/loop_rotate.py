"""Loop rotation (while -> guarded do-while): `loop_rotate(body)`.

A loop whose header only computes its exit test and branches (`for` and `while` as
lower.py builds them) tests at the top, and every iteration ends in a jump back to it.
Rotation copies the header's statements and branch into the preheader (the guard: is
there a first iteration?) and into each latch, in place of the jump back; the old header
is then unreachable:

    bb1: { _2 = const 0_usize; goto -> bb2; }
    bb2: { _3 = Lt(copy _2, copy _1); switchInt(copy _3) -> [0: bb4, otherwise: bb3]; }
    bb3: { ...; _2 = Add(copy _2, const 1_usize); goto -> bb2; }
becomes
    bb1: { _2 = const 0_usize;
           _3 = Lt(copy _2, copy _1); switchInt(copy _3) -> [0: bb4, otherwise: bb3]; }
    bb3: { ...; _2 = Add(copy _2, const 1_usize);
           _3 = Lt(copy _2, copy _1); switchInt(copy _3) -> [0: bb4, otherwise: bb3]; }

The PTX then has one conditional branch per iteration at the bottom of the loop, the
shape ptxas's loop unroller recognises: measured on the naive matmul's inner loop
(sm_90), ptxas unrolls the rotated loop four times and leaves the unrotated one alone.

Every path runs the same statements in the same order as before (a path through the
header now runs its copy instead), so the meaning is unchanged; only pure, non-trapping
assignments (licm.py's `speculatable`, no warp collectives, no loads) are copied, and at
most MAX_HEADER of them. A loop whose latches do not all end in `goto -> header` is
already rotated (or not a simple loop) and is left alone, so rotation happens once.
"""
from __future__ import annotations

import copy
from bisect import insort

from ..mir.syntax import Assign, Body, Goto, SwitchInt
from .licm import speculatable
from .loops import ensure_preheader
from ..mir.cfg import has_cycle, predecessors
from ..mir.visit import kept, kept_loops

MAX_HEADER = 8


def loop_rotate(body: Body) -> bool:
    """Rotate the eligible loops, innermost first, all in one call (a cap of 32 per call,
    from when each rotation searched for the loops again, made a nest of N loops take N/32
    calls, each a round of every pass over the whole body: quadratic; the output is the
    same for every nest that was rotated completely within the pipeline's rounds).

    This is the same as finding the loops again after each rotation and rotating the first
    eligible one, with one search: rotating loop A (header H) only bypasses H (each edge
    into H now goes where H went, and H is unreachable), which changes no other loop's
    header or blocks, and the latches only of a loop that H was a latch of, whose latch H
    ends in a switch and so keeps that loop ineligible (as its new latches, A's preheader
    among them, do). It changes no loop that comes earlier in the order (a loop headed by
    A's preheader, the only header it changes, holds A: it comes later), and A itself,
    now headed by H's successor, has latches that end in a switch: it is not rotated
    again. So the loops after A are asked in the same order, each on the current body."""
    if not kept(body, has_cycle):  # no loop (cfg.has_cycle): nothing to do
        return False
    rotated = False
    # kept (mir.visit.kept): the loops of the body as this call found it; a rotation
    # updates the loops it changes (ensure_preheader), and the driver forgets them after
    preds: list[list[int]] = []  # the body's predecessors, from the first rotation on
    for loop in kept(body, kept_loops):
        if _rotate(body, loop, preds):
            rotated = True
    return rotated


def _rotate(body: Body, loop, preds: list[list[int]]) -> bool:
    """Rotate the loop if it is eligible; `preds` (the body's predecessors, or empty: made
    here) are kept right for the rotations after it (finding a header's predecessors is
    otherwise a scan of the body, for every loop of a nest)."""
    h = loop.header
    header = body.blocks[h]
    if h == 0 or not isinstance(header.terminator, SwitchInt):
        return False
    if len(header.statements) > MAX_HEADER or not all(
            isinstance(s, Assign) and speculatable(s.rvalue) for s in header.statements):
        return False
    targets = (*header.terminator.targets, header.terminator.otherwise)
    if all(t in loop.blocks for t in targets) or h in targets:
        return False  # not an exit test, or a one-block loop
    if not all(isinstance(body.blocks[lt].terminator, Goto) for lt in loop.latches):
        return False
    if not preds:
        preds += predecessors(body)
    pre = ensure_preheader(body, loop, preds)
    if pre is None:
        return False
    for b in [pre, *loop.latches]:
        block = body.blocks[b]
        block.statements = block.statements + [copy.copy(s) for s in header.statements]
        block.terminator = copy.copy(header.terminator)
        # b went to h only (a `goto`), and now goes where h goes (h not among them)
        preds[h].remove(b)
        for t in dict.fromkeys(targets):
            insort(preds[t], b)
    return True


__all__ = ["loop_rotate"]
