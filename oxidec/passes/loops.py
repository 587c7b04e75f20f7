"""Loop analysis for the loop passes, on top of `mir/cfg.py`'s dominators and natural
loops: preheaders, basic induction variables, loop-invariant operands. Nothing here changes
a body except `ensure_preheader`, which adds one block.

    bb0: { _2 = const 0_usize; goto -> bb1; }              dominators: bb0 > bb1 > bb2, bb3
    bb1: { _3 = Lt(copy _2, copy _1);                      back edge: bb2 -> bb1
           switchInt(copy _3) -> [0: bb3, otherwise: bb2]; } loop: header bb1, blocks {bb1, bb2},
    bb2: { _2 = Add(copy _2, const 1_usize); goto -> bb1; }       latches [bb2], exits [bb3]
    bb3: { return; }                                        preheader: bb0 (its only way in)
                                                           basic IV: _2, step const 1_usize,
                                                           updated at bb2[0]

A natural loop is the header plus every block that reaches a back edge's source
without passing the header (a back edge goes to a block that dominates its source).
Loops that share a header are one loop. MIR is not SSA, so facts about a local's value
come from its definitions: `local_defs` lists where each local is written.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from collections import namedtuple

from ..mir.syntax import (
    Assign, AtomicOp, BasicBlock, BinaryOp, Body, Call, Cast, Constant, Copy, Field, Goto, Move,
    Operand, Place, Use,
)
from ..types import IntTy
from ..mir.visit import address_taken, forget_analyses, has_deref, kept, kept_loops
from ..mir.cfg import (  # re-exported: the loop passes' vocabulary
    Dominators, Loop, find_loops, has_cycle, map_targets, outside_predecessors, predecessors, successors,
)


# ---------------------------------------------------------------------------
# Preheaders


def preheader(body: Body, loop: Loop, preds: list[list[int]] | None = None) -> int | None:
    """The block that is the loop's only way in and that only goes to the header, if any
    (`preds`: the body's `predecessors`, when the caller keeps them)."""
    outside = outside_predecessors(body, loop, preds)
    if len(outside) != 1:
        return None
    p = outside[0]
    term = body.blocks[p].terminator
    return p if isinstance(term, Goto) and term.target == loop.header else None


def ensure_preheader(body: Body, loop: Loop, preds: list[list[int]] | None = None
                     ) -> int | None:
    """The loop's preheader, adding an empty `goto -> header` block for it if needed (None
    for a loop headed by the entry block, which keeps its number). The new block joins
    the loops that enclose this one (through `parent`). `preds`: the body's
    `predecessors`, when the caller keeps them (a pass adding preheaders to every loop of
    a nest: finding the header's predecessors is otherwise a scan of the body); they are
    kept right."""
    p = preheader(body, loop, preds)
    if p is not None:
        return p
    if loop.header == 0:
        return None
    outside = outside_predecessors(body, loop, preds)
    span = body.blocks[loop.header].terminator.span
    body.blocks.append(BasicBlock([], Goto(loop.header, span)))
    new = len(body.blocks) - 1
    for o in outside:
        map_targets(body.blocks[o].terminator, lambda t: new if t == loop.header else t)
    if preds is not None:
        preds.append(list(outside))
        preds[loop.header] = [q for q in preds[loop.header] if q not in outside] + [new]
    enclosing = loop.parent
    while enclosing is not None:
        enclosing.blocks.add(new)
        enclosing = enclosing.parent
    return new


# ---------------------------------------------------------------------------
# Definitions and invariance


# A statement's position (a named tuple: made for every def on every analysis, and a tuple
# is the cheapest immutable value to make); `index` is the statement's, len(statements) for
# the terminator. (collections' namedtuple: typing's NamedTuple is the same class, but
# importing `typing` is a few ms of every build.)
Site = namedtuple("Site", ["block", "index"])


def local_defs(body: Body) -> dict[int, list[Site]]:
    """Where each local's own storage is written (whole or in part, not through a pointer)."""
    out: dict[int, list[Site]] = {}
    for b, block in enumerate(body.blocks):
        for i, stmt in enumerate(block.statements):
            t = type(stmt)
            place = stmt.place if t is Assign else stmt.dest if t is AtomicOp else None
            if place is not None and not (place.projection and has_deref(place)):
                sites = out.get(place.local)
                if sites is None:
                    out[place.local] = [Site(b, i)]
                else:
                    sites.append(Site(b, i))
        term = block.terminator
        if type(term) is Call and not has_deref(term.destination):
            out.setdefault(term.destination.local, []).append(
                Site(b, len(block.statements)))
    return out


class LoopFacts:
    """Which locals a loop writes, for invariance questions about one loop."""

    def __init__(self, body: Body, loop: Loop, defs: dict[int, list[Site]] | None = None,
                 taken: set[int] | None = None) -> None:
        self.body = body
        self.loop = loop
        self.defs = defs if defs is not None else local_defs(body)
        self.taken = taken if taken is not None else address_taken(body)
        self.inside = None
        self._written = None
        self._sites: dict[int, list[Site]] = {}  # inside_sites' answers, before `inside`
        self._moved: set[int] = set()  # moved_out's locals, before `written` is made
        if getattr(loop.blocks, "forest", None) is None:
            blocks = loop.blocks
            written = set()
            for local, sites in self.defs.items():
                for s in sites:
                    if s.block in blocks:
                        written.add(local)
                        break
            self._written = written

    @property
    def written(self) -> set[int]:
        """The locals written inside the loop, made on first use (an outer loop of a nest
        writes every local of the loops inside it: made for every loop of a round, they
        were quadratic in the nesting, and most questions are about one local). The set is
        built in the order of `defs`, so that it iterates alike for every caller."""
        if self._written is None:
            self._written, self.inside = _def_index(self.defs, self.loop.blocks.forest
                                                    ).inside(self.loop)
            for local in self._moved:
                self._written.discard(local)
        return self._written

    def inside_sites(self, local: int) -> list[Site]:
        """The local's defs inside the loop, in block order (`defs` lists them so)."""
        if self.inside is not None:
            return self.inside.get(local, [])
        got = self._sites.get(local)
        if got is None:
            blocks = self.loop.blocks
            got = self._sites[local] = [s for s in self.defs.get(local, ()) if s.block in blocks]
        return got

    def moved_out(self, local: int) -> None:
        """The local's writes in the loop have been moved before it (licm): from now on it
        counts as not written in the loop. (Without making `written`: for the loops of a
        nest, that is quadratic in the nesting.)"""
        if self._written is not None:
            self._written.discard(local)
        else:
            self._moved.add(local)

    def invariant_local(self, local: int) -> bool:
        """The local holds the same value on every iteration: the loop never writes it and
        its address is never taken (so nothing writes it behind our back)."""
        if local in self.taken:
            return False
        if self._written is not None:
            return local not in self._written
        if local in self._moved:
            return True
        blocks = self.loop.blocks
        return not any(s.block in blocks for s in self.defs.get(local, ()))

    def invariant_operand(self, op: Operand) -> bool:
        """A constant, or a copy of an invariant local or of a field of one (no memory)."""
        if isinstance(op, Constant):
            return True
        place = op.place
        if not all(isinstance(p, Field) for p in place.projection):
            return False
        return self.invariant_local(place.local)


class _DefIndex:
    """Every def site of a `local_defs` result, ordered by the loop-forest number of its
    block: a loop's blocks are an interval of those numbers (mir/cfg.py), so the defs
    inside a loop are a slice, found in O(log n + what is inside) instead of by asking
    each site of each local (quadratic in the nesting for a nest of loops)."""

    def __init__(self, defs: dict[int, list[Site]], forest) -> None:
        num = forest.num
        n = len(num)
        entries = []
        for rank, (local, sites) in enumerate(defs.items()):
            for s in sites:
                k = num[s.block] if s.block < n else -1
                if k >= 0:
                    entries.append((k, rank, local, s))
        entries.sort()
        self.entries = entries
        self.nums = [e[0] for e in entries]

    def inside(self, loop: Loop) -> tuple[set[int], dict[int, list[Site]]]:
        """(the locals written inside the loop, added in the order of `defs` as LoopFacts
        always made it, so the set iterates alike; each one's sites inside, in order)."""
        by_rank: dict[int, list] = {}
        for _, rank, local, s in self.entries[bisect_left(self.nums, loop.lo):
                                              bisect_left(self.nums, loop.hi)]:
            got = by_rank.get(rank)
            if got is None:
                by_rank[rank] = [local, s]
            else:
                got.append(s)
        sites: dict[int, list[Site]] = {}
        for rank in sorted(by_rank):  # defs' order
            local, *where = by_rank[rank]
            if len(where) > 1:
                where.sort()
            sites[local] = where
        return set(sites), sites


_last_index: tuple = (None, None, -1, None)


def _def_index(defs: dict[int, list[Site]], forest) -> _DefIndex:
    """The index of `defs` on `forest`, made once for the loops of one analysis (the
    last one made is kept, with the objects it was made from)."""
    global _last_index
    d, f, version, index = _last_index
    if d is defs and f is forest and version == forest.version:
        return index
    index = _DefIndex(defs, forest)
    _last_index = (defs, forest, forest.version, index)
    return index


# ---------------------------------------------------------------------------
# Basic induction variables


@dataclass(frozen=True)
class InductionVar:
    local: int
    step: Operand  # a constant or a loop-invariant operand, of the local's type
    update: Site  # the one statement in the loop that writes the local: `i = Add(i, step)`


def basic_ivs(body: Body, loop: Loop, facts: LoopFacts,
              doms: Dominators | None = None) -> dict[int, InductionVar]:
    """Integer locals whose only write inside the loop is `i = Add(copy i, step)` with
    `step` invariant, in a block that runs on every iteration (it dominates every latch).
    `doms`: the body's dominators, when the caller has them."""
    if doms is not None and facts._written is None \
            and getattr(loop.blocks, "forest", None) is not None:
        found = _latch_ivs(body, loop, facts, doms)
        if len(found) <= 1:
            return found
    doms = doms or Dominators(body)
    return _ivs_of(body, loop, facts, doms, facts.written)


def _latch_ivs(body: Body, loop: Loop, facts: LoopFacts,
               doms: Dominators) -> dict[int, InductionVar]:
    """`basic_ivs` found without the loop's written set, for a loop of a loop forest: the
    self-updates `i = Add(copy i, step)` in blocks that dominate every latch, each asked
    what `_ivs_of` asks, found for every loop of the body at once (once per analysis
    round). When two or more qualify, their order is that of the written set, and the
    caller asks the whole question instead.

    In a nest of N loops whose inner guards are gone, an outer loop's latch path runs
    through every inner loop, so asking each loop about the self-updates on its path was
    quadratic in N (every inner counter a candidate of every outer loop, each rejected for
    its second write, the `= 0` before its own loop). The loops in which a self-update is
    its local's only write are one walk up the forest (`sole_write_loops`, which
    strength_reduce's candidates use too)."""
    forest = loop.blocks.forest
    cache = doms.__dict__.setdefault("per_round", {})
    got = cache.get("latch_ivs")
    if got is None or got[0] is not facts.defs or got[1] is not facts.taken \
            or got[2] is not forest or got[3] != forest.version:
        got = cache["latch_ivs"] = (facts.defs, facts.taken, forest, forest.version,
                                    _latch_ivs_by_loop(body, forest, facts.defs, facts.taken, doms))
    return {iv.local: iv for iv in got[4].get(loop.lo, ())}


def _latch_ivs_by_loop(body: Body, forest, defs, taken,
                       doms: Dominators) -> dict[int, list[InductionVar]]:
    """{loop number: its basic induction variables}: per self-update `i = Add(copy i,
    step)`, the loops around it in which it is the local's only write, whose every latch
    it dominates, and in which `step` is invariant (what `_ivs_of` asks of a candidate)."""
    num = forest.num
    n = len(num)

    def written_in(local: int, lp: Loop) -> bool:
        lo, hi = lp.lo, lp.hi
        return any(0 <= s.block < n and lo <= num[s.block] < hi for s in defs.get(local, ()))

    def invariant(op: Operand, lp: Loop) -> bool:  # LoopFacts.invariant_operand
        if isinstance(op, Constant):
            return True
        place = op.place
        if not all(isinstance(p, Field) for p in place.projection):
            return False
        return place.local not in taken and not written_in(place.local, lp)

    out: dict[int, list[InductionVar]] = {}
    for b, locals_ in _self_adds(body).items():
        statements = body.blocks[b].statements
        for local in dict.fromkeys(locals_):
            if local in taken or not isinstance(body.locals[local].ty, IntTy):
                continue
            # (a loop where it is the only write: the block's only write is the self-update)
            site = next(s for s in defs[local] if s.block == b)
            rv = statements[site.index].rvalue if site.index < len(statements) else None
            for lp in sole_write_loops(forest, defs, local, site):
                if _is_local(rv.lhs, local) and invariant(rv.rhs, lp):
                    step = rv.rhs
                elif _is_local(rv.rhs, local) and invariant(rv.lhs, lp):
                    step = rv.lhs
                else:
                    continue
                if all(doms.dominates(b, latch) for latch in lp.latches):
                    out.setdefault(lp.lo, []).append(InductionVar(local, step, site))
    return out


def sole_write_loops(forest, defs: dict[int, list[Site]], local: int, site: Site) -> list:
    """The loops around `site` in which it is `local`'s only write (`defs`: local_defs),
    innermost first: the innermost loop around it and the enclosing ones up to (not
    including) the first that holds another write of the local. A loop's blocks are an
    interval [lo, hi) of the forest's numbering (mir/cfg.py), so the local's other writes'
    numbers nearest to the site's, below and above, bound them: one walk up the forest,
    not a question per loop (for a nest of N loops, that was quadratic in N)."""
    num = forest.num
    n = len(num)
    d = num[site.block] if 0 <= site.block < n else -1
    if d < 0:
        return []
    prev, nxt = -1, n + 1  # the nearest numbers of the local's other writes
    for other in defs.get(local, ()):
        if other.block == site.block and other.index == site.index:
            continue
        k = num[other.block] if 0 <= other.block < n else -1
        if k == d:
            return []  # another write in the same innermost loop: in every loop around it
        if prev < k < d:
            prev = k
        elif d < k < nxt:
            nxt = k
    out = []
    loop = forest.preorder[d]
    while loop is not None and loop.lo > prev and loop.hi <= nxt:
        out.append(loop)
        loop = loop.parent
    return out


def _self_adds(body: Body) -> dict[int, list[int]]:
    """block -> the locals its statements `l = Add(copy l, _)` / `Add(_, copy l)` update."""
    out: dict[int, list[int]] = {}
    for b, block in enumerate(body.blocks):
        for stmt in block.statements:
            if type(stmt) is not Assign or stmt.place.projection:
                continue
            rv = stmt.rvalue
            if type(rv) is BinaryOp and rv.op == "add":
                local = stmt.place.local
                if _is_local(rv.lhs, local) or _is_local(rv.rhs, local):
                    out.setdefault(b, []).append(local)
    return out


def _ivs_of(body: Body, loop: Loop, facts: LoopFacts, doms: Dominators,
            locals_) -> dict[int, InductionVar]:
    out = {}
    for local in locals_:
        if local in facts.taken or not isinstance(body.locals[local].ty, IntTy):
            continue
        inside = facts.inside_sites(local)
        if len(inside) != 1:
            continue
        site = inside[0]
        block = body.blocks[site.block]
        if site.index >= len(block.statements):
            continue
        stmt = block.statements[site.index]
        if not (isinstance(stmt, Assign) and stmt.place == Place(local)):
            continue
        rv = stmt.rvalue
        if not (isinstance(rv, BinaryOp) and rv.op == "add"):
            continue
        if _is_local(rv.lhs, local) and facts.invariant_operand(rv.rhs):
            step = rv.rhs
        elif _is_local(rv.rhs, local) and facts.invariant_operand(rv.lhs):
            step = rv.lhs
        else:
            continue
        if not all(doms.dominates(site.block, latch) for latch in loop.latches):
            continue
        out[local] = InductionVar(local, step, site)
    return out


def iteration_locals(body: Body, blocks: set[int]) -> set[int]:
    """Temporaries written once, inside `blocks` (a loop), address never taken, and read
    only inside them at places their write dominates: values of one iteration, which a
    copy of the blocks may give fresh locals."""
    from ..mir.visit import statement_reads, terminator_reads
    doms = Dominators(body)
    taken = address_taken(body)
    candidates = {}
    for local, sites in local_defs(body).items():
        if local <= body.arg_count or local in taken or len(sites) != 1:
            continue
        if body.locals[local].name is not None:
            continue  # a user variable keeps one name (and one local) for the debugger
        if sites[0].block in blocks:
            candidates[local] = sites[0]
    bad = set()
    for b, block in enumerate(body.blocks):
        where = [(i, statement_reads(s)) for i, s in enumerate(block.statements)]
        where.append((len(block.statements), terminator_reads(block.terminator)))
        for i, reads in where:
            for local in reads:
                d = candidates.get(local)
                if d is None:
                    continue
                if b not in blocks or not (d.block == b and d.index < i
                                           or d.block != b and doms.dominates(d.block, b)):
                    bad.add(local)
    return set(candidates) - bad


def remove_dead_ivs(body: Body) -> bool:
    """Delete every write of a temporary that only its own writes read (an induction
    variable nothing uses any more: `_9 = Add(copy _9, const 4_usize)`, or a pointer moved
    by `ptr_add`), which `dead_code` keeps because the update reads it."""
    from .dead_code import is_temporary
    from ..mir.visit import read_counts, statement_reads
    # a local's reads by its own writes, against all its reads (kept: the pass's dead_code
    # step has just counted them); most writes do not read their own local
    own: dict[int, int] = {}
    for block in body.blocks:
        for stmt in block.statements:
            if type(stmt) is not Assign:
                continue
            place = stmt.place
            target = place.local
            rv = stmt.rvalue
            t = type(rv)
            if not place.projection and (t is BinaryOp or t is Use or t is Cast):
                n = 0  # statement_reads' count of the target, for the common case
                for op in (rv.lhs, rv.rhs) if t is BinaryOp else (rv.operand,):
                    c = op.__class__
                    if c is Copy or c is Move:
                        if op.place.projection:
                            n = statement_reads(stmt).count(target)
                            break
                        if op.place.local == target:
                            n += 1
            elif has_deref(place):
                continue  # a store through the local's pointer: its reads are others'
            else:
                n = statement_reads(stmt).count(target)
            if n:
                own[target] = own.get(target, 0) + n
    if not own:
        return False
    reads = kept(body, read_counts)
    taken = kept(body, address_taken)
    dead = {local for local, n in own.items() if reads[local] == n and local not in taken
            and is_temporary(body, local)}
    if not dead:
        return False
    forget_analyses(body)
    for block in body.blocks:
        block.statements = [s for s in block.statements if not (
            isinstance(s, Assign) and not s.place.projection and s.place.local in dead)]
    return True


def _is_local(op: Operand, local: int) -> bool:
    return isinstance(op, (Copy, Move)) and op.place == Place(local)


__all__ = [
    "Dominators", "Loop", "find_loops", "predecessors", "preheader", "ensure_preheader",
    "outside_predecessors", "Site", "local_defs", "LoopFacts", "InductionVar", "basic_ivs",
    "remove_dead_ivs", "iteration_locals", "in_rounds", "sole_write_loops",
]


def in_rounds(rewrite_one, body: Body, rounds: int = 16) -> bool:
    """Run `rewrite_one(body)` (one change per call, its analysis redone from scratch each
    time) until it changes nothing, at most `rounds` times; whether anything changed."""
    changed = False
    for _ in range(rounds):
        if not rewrite_one(body):
            break
        forget_analyses(body)  # what mir.visit.kept kept of the body no longer holds
        changed = True
    return changed


def rewrite_each_iv(body: Body, try_iv) -> bool:
    """Drive a pass that rewrites one induction variable at a time: for each loop (but one
    headed by the entry block) and each basic induction variable, `try_iv(body, loop,
    facts, iv, doms)` rewrites and returns True, or returns False; after a rewrite the
    analysis is redone (at most 16 rounds). Dead induction variables are removed at the end.
    """
    from .dead_code import dead_code
    changed = dead_code(body)  # a dead read must not make an expression look used
    if kept(body, has_cycle):  # else no loop, no induction variable
        changed = in_rounds(lambda b: _rewrite_one_iv(b, try_iv), body) or changed
    return remove_dead_ivs(body) or changed


def per_round(doms: Dominators, name: str, make, body: Body):
    """`make(body)`, made once per analysis round of `rewrite_each_iv` (whose `doms` is
    made anew each round, and a round ends when its body changes)."""
    cache = doms.__dict__.setdefault("per_round", {})
    got = cache.get(name)
    if got is None:
        got = cache[name] = make(body)
    return got


def _rewrite_one_iv(body: Body, try_iv) -> bool:
    # the analyses hold until `try_iv` rewrites, and then this round ends (kept: shared
    # with the other passes while the body is unchanged, mir.visit.kept)
    doms = kept(body, Dominators)
    defs, taken = kept(body, local_defs), kept(body, address_taken)
    for loop in kept(body, kept_loops):
        if loop.header == 0:
            continue
        facts = LoopFacts(body, loop, defs, taken)
        for iv in basic_ivs(body, loop, facts, doms).values():
            if try_iv(body, loop, facts, iv, doms):
                return True
    return False
