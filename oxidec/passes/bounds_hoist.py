"""Bounds-check hoisting by loop versioning: `bounds_hoist(body)`.

In a counted loop as `lower.py::lower_range_loop` builds it (`for k in lo..hi`):

    head: _c = Lt(copy k, copy hi); switchInt(copy _c) -> [0: exit, otherwise: body];
    ...   k = Add(copy k, const 1);  goto -> head;          // the only write of k in the loop

a bounds check `_t = Lt(idx, len); assert(copy _t)` in the loop whose index is affine in
k, `idx = a * k + b` (affine.py; a, b and len invariant), passes on every iteration when

    P:  hi <= k0  ||  (a * (hi - 1) + b does not overflow  &&  a * (hi - 1) + b < len)

with k0 the value of k on entry: either the loop runs zero times, or k takes the values
k0 .. hi-1 (it starts at k0, grows by one, and the header test stops it below hi, so it
never wraps), and with a, b read as unsigned numbers the exact a * k + b grows with k, so
if its largest value fits the type and is below len, every index computed with wrapping
arithmetic is that exact value and is below len. Overflow is ruled out cheaply: a product
by a constant c needs hi - 1 <= MAX / c; by a variable, both factors below 2^32; a sum
s = m + b did not wrap when s >= m.

The preheader computes P (the AND of every hoisted check's condition) and branches: when P
holds, to the loop with those asserts replaced by gotos; when it does not, to a copy of the
original loop, checks and all, which traps at exactly the iteration the source would (or
not at all: a wrapping index may stay in bounds, and P is only sufficient).

Why not just one `assert(P)` before the loop? A trap aborts the whole launch: the CUDA
context is unusable afterwards, so nothing the loop would have stored before the failing
iteration is observable, and trapping early is indistinguishable from trapping late. That
argument makes `assert(P)` sound only when the failing check surely runs (on every
iteration, no other exit, no wrapping); the copy keeps the exact behaviour without those
conditions, and costs code size only. The copy's checks are rewritten as
`assert(!(idx >= len))` (`Ge`, expected false), which this pass does not match, so a loop
is versioned once.

    bb1: { _9 = Mul(copy _1, copy _4); _12 = Len(_2); goto -> bb2; }
    bb2: { _5 = Lt(copy _3, copy _4); switchInt(copy _5) -> [0: bb5, otherwise: bb3]; }
    bb3: { _10 = Add(copy _9, copy _3); _11 = Lt(copy _10, copy _12);
           assert(copy _11, "index out of bounds") -> [success: bb4]; }
    bb4: { ...(*_2)[_10]...; _3 = Add(copy _3, const 1_usize); goto -> bb2; }
becomes
    bb1: { ...; _13 = Le(copy _4, copy _3); _14 = Sub(copy _4, const 1_usize);
           _15 = Add(copy _14, copy _9); _16 = Ge(copy _15, copy _14);
           _17 = Lt(copy _15, copy _12); _18 = BitAnd(copy _16, copy _17);
           _19 = BitOr(copy _13, copy _18); switchInt(copy _19) -> [0: bb6, otherwise: bb2]; }
    bb3: { _10 = Add(copy _9, copy _3); _11 = Lt(copy _10, copy _12); goto -> bb4; }
    bb6.. : a copy of the loop, with fresh locals for the values of one iteration and the
            check as `_21 = Ge(copy _20, copy _12); assert(!copy _21)`

Loops with a barrier, another effect, an atomic, a call or a warp collective are left
alone: the two versions would put those into different control flow.
"""
from __future__ import annotations

import copy

from ..mir.syntax import (
    WARP_COLLECTIVES, Assert, Assign, AtomicOp, BasicBlock, BinaryOp, Body, Call, Constant,
    Copy, Effect, Goto, Index, Intrinsic, Move, Place, SwitchInt,
)
from ..types import BOOL, IntTy
from .affine import Affine, AffineAnalysis, Builder, ZERO, ONE
from ..mir.cfg import Dominators, has_cycle, map_targets
from .loops import (LoopFacts, Site, basic_ivs, ensure_preheader, in_rounds, iteration_locals,
                    local_defs)
from ..mir.visit import (
    address_taken, forget_analyses, kept, kept_loops, rewrite_statement, rewrite_terminator,
)

MAX_LOOP_BLOCKS = 64  # the copy doubles the loop; leave very large loops alone


def bounds_hoist(body: Body) -> bool:
    if not kept(body, has_cycle):  # no loop (cfg.has_cycle): nothing to do
        return False
    # one loop per round: the analysis is redone after each change
    return in_rounds(_hoist_one, body)


def _hoist_one(body: Body) -> bool:
    # kept analyses (mir.visit.kept), forgotten as soon as a loop is versioned
    doms = kept(body, Dominators)
    whole: list = []  # (defs, address taken): made for the first loop that asks, shared
    for loop in kept(body, kept_loops):
        if loop.header == 0 or len(loop.blocks) > MAX_LOOP_BLOCKS or has_side_effects(body, loop):
            continue
        counted = _counted_loop(body, loop, doms, whole)
        if counted is None:
            continue
        iv, hi, analysis = counted
        checks = _hoistable_checks(body, loop, analysis)
        if checks:
            forget_analyses(body)
            _version(body, loop, iv, hi, checks, analysis)
            return True
    return False


def has_side_effects(body: Body, loop) -> bool:
    for b in loop.blocks:
        block = body.blocks[b]
        if isinstance(block.terminator, Call):
            return True
        for stmt in block.statements:
            if isinstance(stmt, (Effect, AtomicOp)):
                return True
            if isinstance(stmt, Assign) and isinstance(stmt.rvalue, Intrinsic) \
                    and stmt.rvalue.name in WARP_COLLECTIVES:
                return True
    return False


def _counted_loop(body: Body, loop, doms, whole: list):
    """(iv, hi, analysis) when the header is `_c = Lt(copy iv, hi); switchInt(_c) -> [0:
    exit, otherwise: inside]` with iv an unsigned basic IV of step 1 and hi invariant.
    `whole`: the body's defs and address-taken locals once made (the body does not change
    while `_hoist_one` looks for a loop), else empty."""
    header = body.blocks[loop.header]
    term = header.terminator
    if not (isinstance(term, SwitchInt) and term.values == (0,)
            and term.targets[0] not in loop.blocks and term.otherwise in loop.blocks):
        return None
    if not (isinstance(term.discr, (Copy, Move)) and not term.discr.place.projection):
        return None
    c = term.discr.place.local
    test = [s for s in header.statements if isinstance(s, Assign) and s.place == Place(c)]
    if len(test) != 1 or not isinstance(test[0].rvalue, BinaryOp) or test[0].rvalue.op != "lt":
        return None
    lhs, hi = test[0].rvalue.lhs, test[0].rvalue.rhs
    if not (isinstance(lhs, (Copy, Move)) and not lhs.place.projection):
        return None
    if not whole:
        whole += [kept(body, local_defs), kept(body, address_taken)]
    facts = LoopFacts(body, loop, whole[0], whole[1])
    if not facts.invariant_operand(hi):
        return None
    ivs = basic_ivs(body, loop, facts, doms)
    iv = ivs.get(lhs.place.local)
    if iv is None or iv.update.block == loop.header:
        return None
    ty = body.locals[iv.local].ty
    if not (isinstance(ty, IntTy) and not ty.signed and iv.step == Constant(1, ty)):
        return None
    # the header must test k before anything else reads it, and write nothing else
    if any(isinstance(s, Assign) and s.place.local == iv.local for s in header.statements):
        return None
    return iv, hi, AffineAnalysis(body, loop, facts, iv, doms)


def _hoistable_checks(body: Body, loop, analysis: AffineAnalysis):
    """[(block, affine index, len operand, check local)] for the asserts to hoist."""
    facts = analysis.facts
    out = []
    for b in sorted(loop.blocks):
        if b == loop.header:
            continue
        block = body.blocks[b]
        term = block.terminator
        if not (isinstance(term, Assert) and term.expected and isinstance(term.cond, (Copy, Move))
                and not term.cond.place.projection):
            continue
        t = term.cond.place.local
        sites = facts.defs.get(t, [])
        if len(sites) != 1 or t in facts.taken:
            continue
        d = sites[0]
        at = Site(b, len(block.statements))
        if d.block not in loop.blocks or not analysis.dominates(d, at):
            continue
        stmt = body.blocks[d.block].statements[d.index]
        rv = stmt.rvalue if isinstance(stmt, Assign) else None
        if not (isinstance(rv, BinaryOp) and rv.op == "lt" and facts.invariant_operand(rv.rhs)):
            continue
        idx = analysis.query(rv.lhs, d)
        if idx is None or analysis.phases != {"head"} and idx.a != ZERO:
            continue
        out.append((b, idx, rv.rhs, t))
    return out


def _version(body: Body, loop, iv, hi, checks, analysis) -> None:
    ty = analysis.ty
    pre = ensure_preheader(body, loop)
    span = body.blocks[loop.header].terminator.span
    build = Builder(body, span)
    k0 = Copy(Place(iv.local))
    empty = build.binary("le", hi, k0, BOOL)
    last_k = build.binary("sub", hi, Constant(1, ty), ty)
    ok = None
    for _, idx, length, _ in checks:
        cond = _check_condition(build, idx, last_k, length, ty)
        ok = cond if ok is None else build.binary("bitand", ok, cond, BOOL)
    p = build.binary("bitor", empty, ok, BOOL)
    slow_header = copy_loop(body, loop, {t for *_, t in checks})
    for b, *_ in checks:
        term = body.blocks[b].terminator
        body.blocks[b].terminator = Goto(term.target, term.span)
    block = body.blocks[pre]
    block.statements.extend(build.stmts)
    block.terminator = SwitchInt(p, (0,), (slow_header,), loop.header, span)


def _check_condition(build: Builder, idx: Affine, last_k, length, ty: IntTy):
    """a * last_k + b < len, with no overflow (see the module docstring)."""
    conds = []
    if idx.a == ZERO:
        last = build.inv(idx.b, ty)
    else:
        if idx.a == ONE:
            m = last_k
        elif idx.a[0] == "k":
            c = idx.a[1]
            limit = ((1 << ty.bits) - 1) // c
            conds.append(build.binary("le", last_k, Constant(limit, ty), BOOL))
            m = build.binary("mul", last_k, Constant(c, ty), ty)
        else:
            a = build.inv(idx.a, ty)
            both = build.binary("bitor", a, last_k, ty)
            high = build.binary("shr", both, Constant(ty.bits // 2, ty), ty)
            conds.append(build.binary("eq", high, Constant(0, ty), BOOL))
            m = build.binary("mul", last_k, a, ty)
        if idx.b == ZERO:
            last = m
        else:
            last = build.binary("add", m, build.inv(idx.b, ty), ty)
            conds.append(build.binary("ge", last, m, BOOL))
    conds.append(build.binary("lt", last, length, BOOL))
    out = conds[0]
    for c in conds[1:]:
        out = build.binary("bitand", out, c, BOOL)
    return out


def copy_loop(body: Body, loop, hoisted: set[int]) -> int:
    """Append a copy of the loop's blocks (exits shared with the original) and return the
    copy's header. Locals that live only within one iteration get fresh copies, so that
    they keep a single definition (copy_prop, fma_contract and the others want that);
    the hoisted checks `_t = Lt(i, n); assert(copy _t)` become `_u = Ge(i, n);
    assert(!copy _u)`."""
    new_index = {}
    for b in sorted(loop.blocks):
        new_index[b] = len(body.blocks) + len(new_index)
    renamed = {}
    for local in sorted(iteration_locals(body, loop.blocks)):
        body.locals.append(copy.copy(body.locals[local]))
        renamed[local] = len(body.locals) - 1

    def place_fn(place: Place, is_def: bool) -> Place:
        proj = tuple(Index(renamed.get(p.local, p.local)) if isinstance(p, Index) else p
                     for p in place.projection)
        return Place(renamed.get(place.local, place.local), proj)

    copies = []
    for b in sorted(loop.blocks):
        block = body.blocks[b]
        stmts = []
        for s in block.statements:
            s = copy.copy(s)
            if isinstance(s, Assign) and s.place == Place(s.place.local) \
                    and s.place.local in hoisted:
                s.rvalue = BinaryOp("ge", s.rvalue.lhs, s.rvalue.rhs)
            rewrite_statement(s, place_fn=place_fn)
            stmts.append(s)
        term = copy.copy(block.terminator)
        map_targets(term, lambda t: new_index.get(t, t))
        if isinstance(term, Assert) and isinstance(term.cond, (Copy, Move)) \
                and term.cond.place.local in hoisted:
            term.expected = False
        rewrite_terminator(term, place_fn=place_fn)
        copies.append(BasicBlock(stmts, term))
    body.blocks.extend(copies)
    return new_index[loop.header]


__all__ = ["bounds_hoist", "copy_loop", "has_side_effects"]
