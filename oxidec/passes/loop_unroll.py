"""Unrolling of counted loops with a run-time trip count: `loop_unroll(body)`.

(Loops with a constant trip count are unrolled fully when lowering, `lower.py`; this is
for `for k in lo..n` with n known only at run time.) After rotation (loop_rotate.py) a
small loop is one block that runs its body, steps `k` by one and tests `k < hi` at the
bottom. It becomes a main loop that runs `u` copies of the body per trip while at least
`u` iterations remain, followed by the original loop for the last few (`u` = 16, 8 or 4,
the most that keeps the copies within BUDGET statements; 4 below):

    bb1: { ...; _3 = Lt(copy _2, copy _1); switchInt(copy _3) -> [0: bb3, otherwise: bb2]; }
    bb2: { BODY; _2 = Add(copy _2, const 1_usize);
           _3 = Lt(copy _2, copy _1); switchInt(copy _3) -> [0: bb3, otherwise: bb2]; }
becomes (u = 4)
    bb1: { ...; _3 = Lt(copy _2, copy _1); switchInt(copy _3) -> [0: bb3, otherwise: bb6]; }
    bb6: { _9 = Lt(copy _2, copy _1); _10 = Sub(copy _1, copy _2);
           _11 = Ge(copy _10, const 4_usize); _12 = BitAnd(copy _9, copy _11);
           _20 = @max(copy _1, const 3_usize); _13 = Sub(copy _20, const 3_usize);
           switchInt(copy _12) -> [0: bb2, otherwise: bb4]; }
    bb4: { BODY; _2 = Add(copy _2, const 1_usize); _14 = Lt(copy _2, copy _1);   (4 copies,
           ...                                                                  fresh temporaries)
           _18 = Lt(copy _2, copy _13); switchInt(copy _18) -> [0: bb5, otherwise: bb4]; }
    bb5: { _19 = Lt(copy _2, copy _1); switchInt(copy _19) -> [0: bb3, otherwise: bb2]; }
    bb2: unchanged: the remainder loop

The main loop is entered only when `k < hi` and `hi - k >= u` (no wrap: hi - k is the
number of iterations left); it goes round again while `k < hi - (u - 1)`, which is
`hi - k >= u` (hi >= u - 1 there, so hi - (u - 1) does not wrap; it is computed as
max(hi, u - 1) - (u - 1), the same value there, so that a range analysis sees it is not
wrapped anywhere: the 32-bit counters of counters32.py). So each copy's test
`k < hi` would have been true: the copies run exactly the iterations the loop would
have. Temporaries of one iteration get fresh locals in each copy (so fma contraction and
the single-definition passes still see one write each); user variables and what is
carried from one iteration to the next (the IV, accumulators, pointers) are shared.
ptxas does not unroll a loop further once it is unrolled here (measured on the
naive matmul: ptxas alone unrolls the rotated loop 4 times, 29 SASS instructions per 4
multiply-adds; unrolled 16 times here, 91 per 16, nvcc 73 per 16).

A grid-stride loop (`i += stride`, the stride a u32 widened to the 64-bit IV or a
constant, so below 2^32) is unrolled STRIDED_FACTOR = 4 times the same way, with `(u - 1) * s` for `u - 1`:
entered when `k < hi` and `(u - 1) * s < hi - k`, round again while
`k < hi - (u - 1) * s`; the copies read k, k + s, .., k + (u - 1) s, all below hi, and
(u - 1) * s < 2^36 does not wrap. Four loads in flight per thread instead of one.

Only single-block loops without effects, atomics (except in grid-stride loops), calls or
warp collectives, with at most MAX_STATEMENTS statements, an unsigned IV stepped by 1 or
by such a stride and an invariant bound, entered from one block, are unrolled; the
remainder loop (entered from two places) and the main loop (its test is not `k < hi`)
are not unrolled again.
"""
from __future__ import annotations

import copy

from ..mir.syntax import (
    WARP_COLLECTIVES, Assign, AtomicOp, BasicBlock, BinaryOp, Body, Cast, Constant, Copy, Effect,
    Index, Intrinsic, Move, Place, SwitchInt,
)
from ..types import BOOL, IntTy
from .affine import Builder
from .loops import LoopFacts, basic_ivs, in_rounds, iteration_locals
from ..mir.cfg import has_cycle, map_targets, predecessors
from ..mir.typeof import MirTypeError, operand_ty
from ..mir.visit import kept, kept_loops, rewrite_statement, single_def_locals

FACTORS = (16, 8, 4)  # the largest whose copies stay within BUDGET statements
# copies of a loop that steps by a run-time stride (a grid-stride loop): memory-bound, so
# four loads in flight per thread are what nvcc gives it too; more cost registers
STRIDED_FACTOR = 4
BUDGET = 128
MAX_STATEMENTS = BUDGET // FACTORS[-1]


def unroll_factor(statements: int) -> int:
    return next(f for f in FACTORS if f * statements <= BUDGET)


def loop_unroll(body: Body) -> bool:
    if not kept(body, has_cycle):  # no loop (cfg.has_cycle): nothing to do
        return False
    return in_rounds(_unroll_one, body)


def _unroll_one(body: Body) -> bool:
    # kept (mir.visit.kept): the body as the pass driver or the round before left it
    # (in_rounds forgets them after each unrolling)
    preds = kept(body, predecessors)
    for loop in kept(body, kept_loops):
        if len(loop.blocks) != 1:
            continue
        b = loop.header
        block = body.blocks[b]
        outside = [p for p in preds[b] if p != b]
        if b == 0 or len(outside) != 1 or len(block.statements) > MAX_STATEMENTS:
            continue
        shape = _counted(body, loop, block)
        if shape is None or not _plain(block, atomics=shape[3] is not None):
            continue
        _unroll(body, b, outside[0], *shape)
        return True
    return False


def _plain(block: BasicBlock, atomics: bool = False) -> bool:
    """No effects, calls or warp collectives (and no atomics unless `atomics`: a
    grid-stride loop's copies run its atomics in the same order, one thread at a time,
    as the histogram's `fetch_add` per element)."""
    for stmt in block.statements:
        if isinstance(stmt, Effect) or isinstance(stmt, AtomicOp) and not atomics:
            return False
        if isinstance(stmt, Assign) and isinstance(stmt.rvalue, Intrinsic) \
                and stmt.rvalue.name in WARP_COLLECTIVES:
            return False
    return True


def _counted(body: Body, loop, block: BasicBlock):
    """(iv local, hi operand, exit block) when the block ends in `_c = Lt(copy k, hi);
    switchInt(copy _c) -> [0: exit, otherwise: itself]`, k's only write is the step by 1
    before it, and hi is invariant."""
    term = block.terminator
    b = loop.header
    if not (isinstance(term, SwitchInt) and term.values == (0,) and term.otherwise == b
            and term.targets[0] != b and isinstance(term.discr, (Copy, Move))
            and not term.discr.place.projection):
        return None
    test = block.statements[-1] if block.statements else None
    c = term.discr.place.local
    if not (isinstance(test, Assign) and test.place == Place(c)
            and isinstance(test.rvalue, BinaryOp) and test.rvalue.op == "lt"):
        return None
    lhs, hi = test.rvalue.lhs, test.rvalue.rhs
    if not (isinstance(lhs, (Copy, Move)) and not lhs.place.projection):
        return None
    facts = LoopFacts(body, loop)
    iv = basic_ivs(body, loop, facts).get(lhs.place.local)
    if iv is None or not facts.invariant_operand(hi):
        return None
    ty = body.locals[iv.local].ty
    if not (isinstance(ty, IntTy) and not ty.signed):
        return None
    if iv.step == Constant(1, ty):
        return iv.local, hi, term.targets[0], None
    if ty.bits == 64 and _narrow_step(body, iv.step):
        return iv.local, hi, term.targets[0], iv.step
    return None


def _narrow_step(body: Body, step) -> bool:
    """A constant step below 2^32, or one held in a local whose one def widens an unsigned
    value of at most 32 bits (a grid stride, `(gridDim * blockDim) as usize`): below
    2^32, so STRIDED_FACTOR - 1 steps of it do not wrap a 64-bit index."""
    if isinstance(step, Constant):
        return 1 < step.value < (1 << 32)
    if not (isinstance(step, (Copy, Move)) and not step.place.projection):
        return False
    d = single_def_locals(body).get(step.place.local)
    if d is None or not isinstance(d.rvalue, Cast):
        return False
    try:
        src = operand_ty(body, d.rvalue.operand)
    except MirTypeError:
        return False
    return isinstance(src, IntTy) and not src.signed and src.bits <= 32


def _unroll(body: Body, b: int, entry: int, k: int, hi, exit_block: int, step) -> None:
    ty = body.locals[k].ty
    block = body.blocks[b]
    unroll = unroll_factor(len(block.statements)) if step is None else STRIDED_FACTOR
    span = block.terminator.span
    fresh = sorted(iteration_locals(body, {b}))
    stmts = []
    for _ in range(unroll):
        renamed = {}
        for local in fresh:
            body.locals.append(copy.copy(body.locals[local]))
            renamed[local] = len(body.locals) - 1

        def place_fn(place: Place, is_def: bool, renamed=renamed) -> Place:
            proj = tuple(Index(renamed.get(p.local, p.local)) if isinstance(p, Index) else p
                         for p in place.projection)
            return Place(renamed.get(place.local, place.local), proj)

        for s in block.statements:
            s = copy.copy(s)
            rewrite_statement(s, place_fn=place_fn)
            stmts.append(s)
    kk = Copy(Place(k))
    n = len(body.blocks)
    main, tail, guard = n, n + 1, n + 2
    first = Builder(body, span)
    inside = first.binary("lt", kk, hi, BOOL)
    left = first.binary("sub", hi, kk, ty)
    if step is None:
        enough = first.binary("ge", left, Constant(unroll, ty), BOOL)
        go = first.binary("bitand", inside, enough, BOOL)
        # entered with hi - k >= unroll, so hi >= unroll - 1 and `k < hi - (unroll - 1)` is
        # `hi - k >= unroll` without wrapping
        # (as max(hi, unroll - 1) - (unroll - 1), the same value there, whose range a
        # pass can see is not wrapped: the 32-bit version's counters, counters32.py)
        top = first.assign(Intrinsic("max", (hi, Constant(unroll - 1, ty))), ty)
        limit = first.binary("sub", top, Constant(unroll - 1, ty), ty)
    else:
        # the copies read k, k + s, .., k + (unroll - 1) s: all below hi when
        # hi - k > (unroll - 1) s (no wrap: s < 2^32); then `k < hi - (unroll - 1) s` is
        # that test again after each trip
        span_ = first.binary("mul", step, Constant(unroll - 1, ty), ty)
        enough = first.binary("lt", span_, left, BOOL)
        go = first.binary("bitand", inside, enough, BOOL)
        top = first.assign(Intrinsic("max", (hi, span_)), ty)  # (as above: hi >= span_ there)
        limit = first.binary("sub", top, span_, ty)
    again = Builder(body, span)
    go_on = again.binary("lt", kk, limit, BOOL)
    body.blocks.append(BasicBlock(stmts + again.stmts,
                                  SwitchInt(go_on, (0,), (tail,), main, span)))
    rest = Builder(body, span)
    more = rest.binary("lt", kk, hi, BOOL)
    body.blocks.append(BasicBlock(rest.stmts, SwitchInt(more, (0,), (exit_block,), b, span)))
    body.blocks.append(BasicBlock(first.stmts, SwitchInt(go, (0,), (b,), main, span)))
    map_targets(body.blocks[entry].terminator, lambda t: guard if t == b else t)


__all__ = ["loop_unroll"]
