"""Walking and rewriting MIR: the shared plumbing of the checks, the passes and the emitter
(the control-flow graph is `cfg.py`).

Vocabulary used by every pass:
- a *def* of local `l` writes `l`'s own storage: an `Assign`, `AtomicOp` or `Call`
  destination whose place is `l` with no `Deref` in its projection (`_5 = ...`,
  `_5.0 = ...`, `_5[_2] = ...`);
- a *read* of `l` is any other mention: an operand, an `Index(l)`, a `Ref`/`Len` place, or a
  destination that goes through a pointer held in `l` (`(*_5) = ...` reads `_5`);
- `l`'s *address is taken* when a `Ref` points into its own storage (no `Deref` in the
  projection); such a local may change behind our back, so no pass tracks its value.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .cfg import Dominators, find_loops, map_targets
from .syntax import (
    Aggregate, Assert, Assign, AtomicOp, BinaryOp, Body, Call, Cast, Copy, Deref, Effect, Goto,
    Index,
    Discriminant, Intrinsic, Len, Move, Operand, Place, Ref, Repeat, Rvalue, StaticRef, SwitchInt,
    Terminator, UnaryOp, Use,
)

# ---------------------------------------------------------------------------
# Reading


def has_deref(place: Place) -> bool:
    projection = place.projection
    if not projection:
        return False  # the common case, without a generator
    for p in projection:
        if type(p) is Deref:
            return True
    return False


# The MIR classes have no subclasses, so the walkers below dispatch on `type(x) is C`
# (cheaper than isinstance chains: every pass asks them about every statement).

def rvalue_operands(rv: Rvalue) -> tuple[Operand, ...]:
    t = type(rv)
    if t is Use:
        return (rv.operand,)
    if t is BinaryOp:
        return (rv.lhs, rv.rhs)
    if t is UnaryOp or t is Cast or t is Repeat:
        return (rv.operand,)
    if t is Aggregate:
        return tuple(rv.operands)
    if t is Intrinsic:
        return tuple(rv.args)
    return ()


def terminator_operands(term: Terminator) -> tuple[Operand, ...]:
    if isinstance(term, SwitchInt):
        return (term.discr,)
    if isinstance(term, Assert):
        return (term.cond,)
    if isinstance(term, Call):
        return tuple(term.args)
    return ()


# The readers build lists (a few entries each) rather than nest generators: every pass asks
# them about every statement, and a generator chain per statement was a large share of the
# compiler's time on long kernels.

def _add_place_reads(out: list[int], place: Place, is_def: bool) -> None:
    projection = place.projection
    if not projection:
        if not is_def:
            out.append(place.local)
        return
    if not is_def or has_deref(place):
        out.append(place.local)
    for p in projection:
        if type(p) is Index:
            out.append(p.local)


def _add_operand_reads(out: list[int], op: Operand) -> None:
    t = type(op)
    if t is Copy or t is Move:
        place = op.place
        if not place.projection:
            out.append(place.local)
        else:
            _add_place_reads(out, place, False)


def _place_reads(place: Place, *, is_def: bool) -> list[int]:
    out: list[int] = []
    _add_place_reads(out, place, is_def)
    return out


def _operand_reads(op: Operand) -> list[int]:
    out: list[int] = []
    _add_operand_reads(out, op)
    return out


def statement_reads(stmt) -> list[int]:
    out: list[int] = []
    t = type(stmt)
    if t is Assign:
        place = stmt.place
        if place.projection:
            _add_place_reads(out, place, True)
        _add_rvalue_reads(out, stmt.rvalue)
    elif t is Effect:
        for op in stmt.args:
            _add_operand_reads(out, op)
    elif t is AtomicOp:
        if stmt.dest is not None:
            _add_place_reads(out, stmt.dest, True)
        _add_operand_reads(out, stmt.ptr)
        for op in stmt.args:
            _add_operand_reads(out, op)
    return out


def statement_reads_any(stmt, watched: set[int] | dict[int, object]) -> bool:
    """Whether the statement reads a local in `watched` (a set, or a dict's keys): an
    early answer for an assignment of an operator, cast or copy of operands without a
    projection to a plain local (most of a body), else `statement_reads`."""
    if type(stmt) is Assign and not stmt.place.projection:
        rv = stmt.rvalue
        t = type(rv)
        if t is BinaryOp:
            ops = (rv.lhs, rv.rhs)
        elif t is Use or t is Cast or t is UnaryOp:
            ops = (rv.operand,)
        else:
            ops = None
        if ops is not None:
            for op in ops:
                c = op.__class__
                if c is Copy or c is Move:
                    place = op.place
                    if place.projection:
                        break  # its indices too: the general case
                    if place.local in watched:
                        return True
            else:
                return False
    keys = watched.keys() if type(watched) is dict else watched
    return not keys.isdisjoint(statement_reads(stmt))


def statement_def(stmt) -> Place | None:
    """The place a statement writes as a def (see above), or None."""
    t = type(stmt)
    if t is Assign:
        place = stmt.place
    elif t is AtomicOp and stmt.dest is not None:
        place = stmt.dest
    else:
        return None
    return None if place.projection and has_deref(place) else place


def _add_rvalue_reads(out: list[int], rv: Rvalue) -> None:
    t = type(rv)
    if t is BinaryOp or t is Use or t is Cast or t is UnaryOp or t is Repeat:
        # _add_operand_reads inline (no call per operand): the common case
        for op in (rv.lhs, rv.rhs) if t is BinaryOp else (rv.operand,):
            if op.__class__ is Copy or op.__class__ is Move:
                place = op.place
                if not place.projection:
                    out.append(place.local)
                else:
                    _add_place_reads(out, place, False)
    elif t is Ref or t is Len or t is Discriminant:
        _add_place_reads(out, rv.place, False)
    elif t is Aggregate:
        for op in rv.operands:
            _add_operand_reads(out, op)
    elif t is Intrinsic:
        for op in rv.args:
            _add_operand_reads(out, op)


def rvalue_reads(rv: Rvalue) -> list[int]:
    out: list[int] = []
    _add_rvalue_reads(out, rv)
    return out


def terminator_reads(term: Terminator) -> list[int]:
    out: list[int] = []
    t = type(term)
    if t is SwitchInt:
        _add_operand_reads(out, term.discr)
    elif t is Assert:
        _add_operand_reads(out, term.cond)
    elif t is Call:
        _add_place_reads(out, term.destination, True)
        for op in term.args:
            _add_operand_reads(out, op)
    return out


def read_counts(body: Body) -> Counter[int]:
    reads: list[int] = []
    add_place, add_rvalue = _add_place_reads, _add_rvalue_reads
    for block in body.blocks:
        for stmt in block.statements:
            if type(stmt) is Assign:  # statement_reads, inline: the common case
                if stmt.place.projection:
                    add_place(reads, stmt.place, True)
                add_rvalue(reads, stmt.rvalue)
            else:
                reads += statement_reads(stmt)
        reads += terminator_reads(block.terminator)
    return Counter(reads)


def defs(body: Body) -> dict[int, list[Assign | AtomicOp | Call]]:
    """Every statement or call that writes a local's own storage, by local."""
    out: dict[int, list[Assign | AtomicOp | Call]] = {}
    for block in body.blocks:
        for stmt in block.statements:
            place = statement_def(stmt)
            if place is not None:
                out.setdefault(place.local, []).append(stmt)
        term = block.terminator
        if type(term) is Call and not has_deref(term.destination):
            out.setdefault(term.destination.local, []).append(term)
    return out


def write_bases(body: Body) -> set[int]:
    """Every local that is the base of a written place (`_1` of `(*_1)[i] = ..` too): an
    assignment, an atomic's destination, a call's destination."""
    out: set[int] = set()
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, Assign):
                out.add(stmt.place.local)
            elif isinstance(stmt, AtomicOp) and stmt.dest is not None:
                out.add(stmt.dest.local)
        if isinstance(block.terminator, Call):
            out.add(block.terminator.destination.local)
    return out


def address_taken(body: Body) -> set[int]:
    taken = set()
    for block in body.blocks:
        for stmt in block.statements:
            if type(stmt) is Assign and type(stmt.rvalue) is Ref:
                if not has_deref(stmt.rvalue.place):
                    taken.add(stmt.rvalue.place.local)
    return taken


def single_def_locals(body: Body, writes: dict | None = None,
                      taken: set[int] | None = None) -> dict[int, Assign]:
    """Non-argument locals written exactly once, by a whole-local `Assign`, address never taken.

    With definitely-initialised MIR (borrowck guarantees it), every read of such a local
    sees the value of that one assignment, which is what lets passes forward it.
    `writes`/`taken`: `defs(body)` and `address_taken(body)`, when the caller has them.
    """
    taken = address_taken(body) if taken is None else taken
    out = {}
    for local, writes_of in (defs(body) if writes is None else writes).items():
        if (0 < local <= body.arg_count) or local in taken or len(writes_of) != 1:
            continue
        (w,) = writes_of
        if type(w) is Assign and not w.place.projection:
            out[local] = w
    return out


def write_once_locals(body: Body, writes: dict | None = None,
                      taken: set[int] | None = None) -> set[int]:
    """Non-argument locals written exactly once as a whole (by an `Assign` or a `Call`),
    address never taken: their value never changes once set. (`writes`/`taken`: as for
    `single_def_locals`.)"""
    taken = address_taken(body) if taken is None else taken
    out = set()
    for local, writes_of in (defs(body) if writes is None else writes).items():
        if (0 < local <= body.arg_count) or local in taken or len(writes_of) != 1:
            continue
        w = writes_of[0]
        place = w.place if isinstance(w, Assign) else w.dest if isinstance(w, AtomicOp) \
            else w.destination
        if not place.projection:
            out.add(local)
    return out


def never_written(body: Body, writes: dict | None = None,
                  taken: set[int] | None = None) -> set[int]:
    """Arguments that the body never writes and whose address is never taken. (`writes`/
    `taken`: as for `single_def_locals`.)"""
    written = set(defs(body) if writes is None else writes) | \
        (address_taken(body) if taken is None else taken)
    return {a for a in body.args() if a not in written}


# ---------------------------------------------------------------------------
# Analyses kept while a body is unchanged
#
# The pass driver (passes.optimize) runs pass after pass over one body, and most calls
# change nothing; each used to recompute the same analyses of the same body. While the
# driver keeps a body (`keep_analyses`), `kept(body, make)` is `make(body)` as computed the
# first time since the body last changed. A pass asks for kept analyses only before it has
# changed anything, and calls `forget_analyses` when it changes the body and goes on to ask
# again; the driver forgets them after every pass that reports a change. The results are
# shared: callers must not modify them.

_kept: tuple = (None, {})  # (the body kept, make -> its result), replaced as a whole


def keep_analyses(body: Body | None) -> None:
    """Keep the analyses of `body` from now on (None: of no body)."""
    global _kept
    _kept = (body, {})


def forget_analyses(body: Body) -> None:
    """`body` changed: what was kept of it no longer holds."""
    got = _kept
    if got[0] is body:
        got[1].clear()


def kept_single_defs(body: Body) -> dict[int, Assign]:
    """`single_def_locals(body)` from the kept `defs` and `address_taken`."""
    return single_def_locals(body, kept(body, defs), kept(body, address_taken))


def kept_loops(body: Body) -> list:
    """`find_loops(body)` over the kept `Dominators` (the loops are shared too)."""
    return find_loops(body, kept(body, Dominators))


def kept(body: Body, make):
    """`make(body)`, computed once per unchanged state of a kept body (see above)."""
    got = _kept
    if got[0] is not body:
        return make(body)
    table = got[1]
    result = table.get(make)
    if result is None:
        result = table[make] = make(body)
    return result


# ---------------------------------------------------------------------------
# Rewriting

OperandFn = Callable[[Operand], Operand]
PlaceFn = Callable[[Place, bool], Place]  # (place, is_def) -> place


def _keep_operand(op: Operand) -> Operand:
    return op


def _keep_place(place: Place, is_def: bool) -> Place:
    return place


def _map_operand(op: Operand, op_fn: OperandFn, place_fn: PlaceFn) -> Operand:
    """`op_fn`, then `place_fn` on the place of a resulting copy or move, which is rebuilt
    (without a span: passes' new operands have none). An operand that neither function
    changed comes back as itself, and the callers keep what holds it as it is."""
    new = op_fn(op)
    t = type(new)
    if t is Copy or t is Move:
        place = new.place
        mapped = place_fn(place, False)
        if new is op and mapped is place:
            return op
        return Copy(mapped) if t is Copy else Move(mapped)
    return new


def _fresh(op: Operand) -> Operand:
    """An operand as `_map_operand` rebuilds it (no span), for an rvalue that is rebuilt."""
    if op.__class__ is Copy or op.__class__ is Move:
        return op if op.span is None else op.__class__(op.place)
    return op


def _mapped(ops, op_fn: OperandFn, place_fn: PlaceFn) -> tuple | None:
    """The operands mapped and rebuilt as a tuple, or None when none changed."""
    new = [_map_operand(o, op_fn, place_fn) for o in ops]
    for a, b in zip(new, ops):
        if a is not b:
            return tuple([_fresh(o) for o in new])
    return None


def map_rvalue(rv: Rvalue, op_fn: OperandFn = _keep_operand,
               place_fn: PlaceFn = _keep_place) -> Rvalue:
    """`rv` with `op_fn`/`place_fn` applied (see `rewrite`): `rv` itself when nothing in it
    changed (rebuilt from the same parts it would equal `rv`), else a new rvalue."""
    t = type(rv)
    if t is BinaryOp:
        lhs, rhs = _map_operand(rv.lhs, op_fn, place_fn), _map_operand(rv.rhs, op_fn, place_fn)
        if lhs is rv.lhs and rhs is rv.rhs:
            return rv
        return BinaryOp(rv.op, _fresh(lhs), _fresh(rhs))
    if t is Use or t is UnaryOp or t is Cast or t is Repeat:
        op = _map_operand(rv.operand, op_fn, place_fn)
        if op is rv.operand:
            return rv
        op = _fresh(op)
        return Use(op) if t is Use else UnaryOp(rv.op, op) if t is UnaryOp \
            else Cast(op, rv.ty) if t is Cast else Repeat(op, rv.count)
    if t is Ref:
        place = place_fn(rv.place, False)
        return rv if place is rv.place else Ref(place, rv.mutable)
    if t is Len:
        place = place_fn(rv.place, False)
        return rv if place is rv.place else Len(place)
    if t is Discriminant:
        place = place_fn(rv.place, False)
        return rv if place is rv.place else Discriminant(place)
    if t is Aggregate:
        ops = _mapped(rv.operands, op_fn, place_fn)
        return rv if ops is None else Aggregate(rv.ty, ops, rv.variant)
    if t is Intrinsic:
        ops = _mapped(rv.args, op_fn, place_fn)
        return rv if ops is None else Intrinsic(rv.name, ops)
    assert t is StaticRef, rv
    return rv


def rewrite_statement(stmt, op_fn: OperandFn = _keep_operand,
                      place_fn: PlaceFn = _keep_place) -> bool:
    """Apply `op_fn`/`place_fn` (see `rewrite`) inside one statement; True if it changed."""
    t = type(stmt)
    if t is Assign:
        place, rv = place_fn(stmt.place, True), map_rvalue(stmt.rvalue, op_fn, place_fn)
        if (place is not stmt.place and place != stmt.place) \
                or (rv is not stmt.rvalue and rv != stmt.rvalue):
            stmt.place, stmt.rvalue = place, rv
            return True
    elif t is Effect:
        args = _mapped(stmt.args, op_fn, place_fn)
        if args is not None and args != tuple(stmt.args):
            stmt.args = args
            return True
    elif t is AtomicOp:
        ptr = _map_operand(stmt.ptr, op_fn, place_fn)
        args = _mapped(stmt.args, op_fn, place_fn)
        dest = place_fn(stmt.dest, True) if stmt.dest is not None else None
        if ptr is stmt.ptr and args is None and dest is stmt.dest:
            return False
        ptr = _fresh(ptr)
        args = args if args is not None else tuple([_fresh(o) for o in stmt.args])
        if ptr != stmt.ptr or args != tuple(stmt.args) or dest != stmt.dest:
            stmt.ptr, stmt.args, stmt.dest = ptr, args, dest
            return True
    return False


def rewrite_terminator(term: Terminator, op_fn: OperandFn = _keep_operand,
                       place_fn: PlaceFn = _keep_place) -> bool:
    """Apply `op_fn`/`place_fn` (see `rewrite`) inside one terminator; True if it changed."""
    t = type(term)
    if t is SwitchInt:
        discr = _map_operand(term.discr, op_fn, place_fn)
        if discr is not term.discr and discr != term.discr:
            term.discr = _fresh(discr)
            return True
    elif t is Assert:
        cond = _map_operand(term.cond, op_fn, place_fn)
        if cond is not term.cond and cond != term.cond:
            term.cond = _fresh(cond)
            return True
    elif t is Call:
        args = _mapped(term.args, op_fn, place_fn)
        dest = place_fn(term.destination, True)
        if args is None and dest is term.destination:
            return False
        args = args if args is not None else tuple([_fresh(o) for o in term.args])
        if args != tuple(term.args) or dest != term.destination:
            term.args, term.destination = args, dest
            return True
    return False


def rewrite(body: Body, op_fn: OperandFn = _keep_operand,
            place_fn: PlaceFn = _keep_place) -> bool:
    """Apply `op_fn` to every operand and `place_fn` to every place; True if anything changed.

    `op_fn` sees each operand first; `place_fn` then sees the place inside a resulting
    `Copy`/`Move`, every `Ref`/`Len` place (is_def=False) and every destination (is_def=True).
    """
    changed = False
    for block in body.blocks:
        for stmt in block.statements:
            changed |= rewrite_statement(stmt, op_fn, place_fn)
        changed |= rewrite_terminator(block.terminator, op_fn, place_fn)
    return changed


def renumber_blocks(body: Body, keep: list[bool]) -> bool:
    """Drop the blocks not kept (never block 0), renumbering targets; True if any dropped."""
    if all(keep):
        return False
    assert keep[0], "the entry block is always kept"
    new_index, blocks = {}, []
    for i, block in enumerate(body.blocks):
        if keep[i]:
            new_index[i] = len(blocks)
            blocks.append(block)
    for block in blocks:
        map_targets(block.terminator, new_index.__getitem__)
    body.blocks = blocks
    return True


__all__ = [
    "has_deref", "statement_def",
    "rvalue_operands", "terminator_operands", "statement_reads", "statement_reads_any",
    "rvalue_reads",
    "terminator_reads", "read_counts", "defs", "address_taken", "single_def_locals",
    "write_once_locals", "never_written", "map_rvalue", "rewrite", "rewrite_statement",
    "rewrite_terminator", "renumber_blocks", "keep_analyses", "forget_analyses", "kept",
    "kept_single_defs", "kept_loops",
]
