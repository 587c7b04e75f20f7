"""Bounds checks implied by a loop's own test, by loop versioning: `guard_hoist(body)`.

A grid-stride loop over two slices, `while i < a.len() { .. a[i] .. b[i] ..; i += stride }`,
is lowered with its test at the bottom (and once before the loop), and checks `i < b.len()`
on every iteration (`a[i]`'s check is the loop test itself, which check_elim sees):

    bb0: { ...; _17 = Lt(copy _14, copy _16); switchInt(copy _17) -> [0: bb1, otherwise: bb2]; }
    bb2: { _19 = Lt(copy _14, copy _18); assert(copy _19, "index out of bounds") -> bb3; }
    bb3: { ...; _14 = Add(copy _14, copy _7); _17 = Lt(copy _14, copy _16);
           switchInt(copy _17) -> [0: bb1, otherwise: bb2]; }

Every way into the header has just tested `k < hi` (the entry's test and the latch's, with
nothing writing k in between), so every iteration starts with k < hi. A check `k < len` in
the header, before anything writes k, therefore passes on every iteration when hi <= len
(whatever the step, and whether or not k would wrap: the check reads the k just tested).
So the preheader tests `hi <= len` (for every such check) and enters the loop without the
checks when it holds; otherwise a copy of the loop with its checks, which traps exactly
where the source would (bounds_hoist.py's `copy_loop`, whose checks are then written
`assert(!Ge(..))` and not matched again). Then the loop is one block again, and
loop_unroll can unroll it.

Loops with a barrier, an effect, an atomic, a call or a warp collective are left alone, as
in bounds_hoist: the two versions would put those in different control flow.
"""
from __future__ import annotations

from ..mir.syntax import Assert, Assign, BinaryOp, Body, Copy, Goto, Move, Place, SwitchInt
from ..mir.cfg import Dominators, has_cycle, outside_predecessors, predecessors
from ..types import BOOL, IntTy
from .affine import Builder
from .bounds_hoist import MAX_LOOP_BLOCKS, copy_loop, has_side_effects
from .loops import LoopFacts, basic_ivs, ensure_preheader, in_rounds, local_defs
from ..mir.visit import address_taken, forget_analyses, kept, kept_loops, statement_def


def guard_hoist(body: Body) -> bool:
    if not kept(body, has_cycle):  # no loop (cfg.has_cycle): nothing to do
        return False
    # one loop per round: the analysis is redone after each change
    return in_rounds(_hoist_one, body)


def _hoist_one(body: Body) -> bool:
    # the body's analyses, made once for the loops of a round (the body does not change
    # until a loop is versioned, and then the round ends)
    doms = kept(body, Dominators)  # kept (mir.visit.kept), forgotten when a loop is versioned
    whole: list = []  # [defs, address taken] once a loop asks
    for loop in kept(body, kept_loops):
        if loop.header == 0 or len(loop.blocks) > MAX_LOOP_BLOCKS \
                or has_side_effects(body, loop) or len(loop.latches) != 1:
            continue
        shape = _guarded(body, loop, doms, whole)
        if shape is None:
            continue
        k, hi = shape
        checks = _header_checks(body, loop, k, whole)
        if checks:
            forget_analyses(body)
            _version(body, loop, hi, checks)
            return True
    return False


def _test_of(block, loop_header: int):
    """(k, hi) when `block` ends `_c = Lt(copy k, hi); switchInt(copy _c)` going to the
    header when _c holds (and elsewhere when not), with nothing after the test writing k."""
    term = block.terminator
    if not (isinstance(term, SwitchInt) and term.values == (0,) and term.otherwise == loop_header
            and term.targets[0] != loop_header and isinstance(term.discr, (Copy, Move))
            and not term.discr.place.projection):
        return None
    c = term.discr.place.local
    for i in range(len(block.statements) - 1, -1, -1):
        stmt = block.statements[i]
        d = statement_def(stmt)
        if d is None or d.local != c:
            continue
        rv = stmt.rvalue if isinstance(stmt, Assign) and not d.projection else None
        if not (isinstance(rv, BinaryOp) and rv.op == "lt" and isinstance(rv.lhs, (Copy, Move))
                and not rv.lhs.place.projection):
            return None
        k = rv.lhs.place.local
        if any(statement_def(s) is not None and statement_def(s).local == k
               for s in block.statements[i + 1:]):
            return None
        return k, rv.rhs
    return None


def _whole(body: Body, whole: list) -> list:
    if not whole:
        whole += [kept(body, local_defs), kept(body, address_taken)]
    return whole


def _guarded(body: Body, loop, doms, whole: list):
    """(k, hi) when the loop's one way in and its one latch both test `k < hi` last."""
    # kept: the body does not change until a loop is versioned (see _hoist_one)
    outside = outside_predecessors(body, loop, kept(body, predecessors))
    if len(outside) != 1:
        return None
    latch = loop.latches[0]
    entry_test = _test_of(body.blocks[outside[0]], loop.header)
    latch_test = _test_of(body.blocks[latch], loop.header)
    if entry_test is None or latch_test is None or entry_test != latch_test:
        return None
    k, hi = latch_test
    facts = LoopFacts(body, loop, *_whole(body, whole))
    if not isinstance(body.locals[k].ty, IntTy) or not facts.invariant_operand(hi):
        return None
    if basic_ivs(body, loop, facts, doms).get(k) is None:
        return None
    return k, hi


def _header_checks(body: Body, loop, k: int, whole: list):
    """[(check local, len operand)] of the header's `_t = Lt(copy k, len); assert(copy _t)`,
    with len invariant and k not written in the header."""
    header = body.blocks[loop.header]
    term = header.terminator
    if not (isinstance(term, Assert) and term.expected and isinstance(term.cond, (Copy, Move))
            and not term.cond.place.projection):
        return []
    facts = LoopFacts(body, loop, *_whole(body, whole))
    t = term.cond.place.local
    if len(facts.defs.get(t, [])) != 1 or t in facts.taken:
        return []
    for stmt in header.statements:
        d = statement_def(stmt)
        if d is not None and d.local == k:
            return []
        if d is not None and d.local == t and not d.projection:
            rv = stmt.rvalue
            if isinstance(rv, BinaryOp) and rv.op == "lt" and rv.lhs == Copy(Place(k)) \
                    and facts.invariant_operand(rv.rhs):
                return [(t, rv.rhs)]
            return []
    return []


def _version(body: Body, loop, hi, checks) -> None:
    pre = ensure_preheader(body, loop)
    span = body.blocks[loop.header].terminator.span
    build = Builder(body, span)
    ok = None
    for _, length in checks:
        cond = build.binary("le", hi, length, BOOL)
        ok = cond if ok is None else build.binary("bitand", ok, cond, BOOL)
    slow_header = copy_loop(body, loop, {t for t, _ in checks})
    term = body.blocks[loop.header].terminator
    body.blocks[loop.header].terminator = Goto(term.target, term.span)
    block = body.blocks[pre]
    block.statements.extend(build.stmts)
    block.terminator = SwitchInt(ok, (0,), (slow_header,), loop.header, span)
