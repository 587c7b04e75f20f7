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

from .cfg import map_targets
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
        if isinstance(p, Deref):
            return True
    return False


def rvalue_operands(rv: Rvalue) -> tuple[Operand, ...]:
    if isinstance(rv, Use):
        return (rv.operand,)
    if isinstance(rv, BinaryOp):
        return (rv.lhs, rv.rhs)
    if isinstance(rv, (UnaryOp, Cast, Repeat)):
        return (rv.operand,)
    if isinstance(rv, (Aggregate, Intrinsic)):
        return tuple(rv.operands if isinstance(rv, Aggregate) else rv.args)
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
        if isinstance(p, Index):
            out.append(p.local)


def _add_operand_reads(out: list[int], op: Operand) -> None:
    if isinstance(op, (Copy, Move)):
        _add_place_reads(out, op.place, False)


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
    if isinstance(stmt, Assign):
        _add_place_reads(out, stmt.place, True)
        _add_rvalue_reads(out, stmt.rvalue)
    elif isinstance(stmt, Effect):
        for op in stmt.args:
            _add_operand_reads(out, op)
    elif isinstance(stmt, AtomicOp):
        if stmt.dest is not None:
            _add_place_reads(out, stmt.dest, True)
        for op in (stmt.ptr, *stmt.args):
            _add_operand_reads(out, op)
    return out


def statement_def(stmt) -> Place | None:
    """The place a statement writes as a def (see above), or None."""
    if isinstance(stmt, Assign):
        place = stmt.place
    elif isinstance(stmt, AtomicOp) and stmt.dest is not None:
        place = stmt.dest
    else:
        return None
    return None if has_deref(place) else place


def _add_rvalue_reads(out: list[int], rv: Rvalue) -> None:
    if isinstance(rv, BinaryOp):
        _add_operand_reads(out, rv.lhs)
        _add_operand_reads(out, rv.rhs)
        return
    if isinstance(rv, (Ref, Len, Discriminant)):
        _add_place_reads(out, rv.place, False)
    for op in rvalue_operands(rv):
        _add_operand_reads(out, op)


def rvalue_reads(rv: Rvalue) -> list[int]:
    out: list[int] = []
    _add_rvalue_reads(out, rv)
    return out


def terminator_reads(term: Terminator) -> list[int]:
    out: list[int] = []
    if isinstance(term, Call):
        _add_place_reads(out, term.destination, True)
    for op in terminator_operands(term):
        _add_operand_reads(out, op)
    return out


def read_counts(body: Body) -> Counter[int]:
    counts: Counter[int] = Counter()
    for block in body.blocks:
        for stmt in block.statements:
            counts.update(statement_reads(stmt))
        counts.update(terminator_reads(block.terminator))
    return counts


def defs(body: Body) -> dict[int, list[Assign | AtomicOp | Call]]:
    """Every statement or call that writes a local's own storage, by local."""
    out: dict[int, list[Assign | AtomicOp | Call]] = {}
    for block in body.blocks:
        for stmt in block.statements:
            place = statement_def(stmt)
            if place is not None:
                out.setdefault(place.local, []).append(stmt)
        term = block.terminator
        if isinstance(term, Call) and not has_deref(term.destination):
            out.setdefault(term.destination.local, []).append(term)
    return out


def address_taken(body: Body) -> set[int]:
    taken = set()
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, Assign) and isinstance(stmt.rvalue, Ref):
                if not has_deref(stmt.rvalue.place):
                    taken.add(stmt.rvalue.place.local)
    return taken


def single_def_locals(body: Body) -> dict[int, Assign]:
    """Non-argument locals written exactly once, by a whole-local `Assign`, address never taken.

    With definitely-initialised MIR (borrowck guarantees it), every read of such a local
    sees the value of that one assignment, which is what lets passes forward it.
    """
    taken = address_taken(body)
    out = {}
    for local, writes in defs(body).items():
        if (0 < local <= body.arg_count) or local in taken or len(writes) != 1:
            continue
        (w,) = writes
        if isinstance(w, Assign) and not w.place.projection:
            out[local] = w
    return out


def write_once_locals(body: Body) -> set[int]:
    """Non-argument locals written exactly once as a whole (by an `Assign` or a `Call`),
    address never taken: their value never changes once set."""
    taken = address_taken(body)
    out = set()
    for local, writes in defs(body).items():
        if (0 < local <= body.arg_count) or local in taken or len(writes) != 1:
            continue
        w = writes[0]
        place = w.place if isinstance(w, Assign) else w.dest if isinstance(w, AtomicOp) \
            else w.destination
        if not place.projection:
            out.add(local)
    return out


def never_written(body: Body) -> set[int]:
    """Arguments that the body never writes and whose address is never taken."""
    written = set(defs(body)) | address_taken(body)
    return {a for a in body.args() if a not in written}


# ---------------------------------------------------------------------------
# Rewriting

OperandFn = Callable[[Operand], Operand]
PlaceFn = Callable[[Place, bool], Place]  # (place, is_def) -> place


def _keep_operand(op: Operand) -> Operand:
    return op


def _keep_place(place: Place, is_def: bool) -> Place:
    return place


def _map_operand(op: Operand, op_fn: OperandFn, place_fn: PlaceFn) -> Operand:
    op = op_fn(op)
    if isinstance(op, Copy):
        return Copy(place_fn(op.place, False))
    if isinstance(op, Move):
        return Move(place_fn(op.place, False))
    return op


def map_rvalue(rv: Rvalue, op_fn: OperandFn = _keep_operand,
               place_fn: PlaceFn = _keep_place) -> Rvalue:
    def m(op: Operand) -> Operand:
        return _map_operand(op, op_fn, place_fn)

    if isinstance(rv, Use):
        return Use(m(rv.operand))
    if isinstance(rv, BinaryOp):
        return BinaryOp(rv.op, m(rv.lhs), m(rv.rhs))
    if isinstance(rv, UnaryOp):
        return UnaryOp(rv.op, m(rv.operand))
    if isinstance(rv, Cast):
        return Cast(m(rv.operand), rv.ty)
    if isinstance(rv, Ref):
        return Ref(place_fn(rv.place, False), rv.mutable)
    if isinstance(rv, Len):
        return Len(place_fn(rv.place, False))
    if isinstance(rv, Discriminant):
        return Discriminant(place_fn(rv.place, False))
    if isinstance(rv, Aggregate):
        return Aggregate(rv.ty, tuple(m(o) for o in rv.operands), rv.variant)
    if isinstance(rv, Repeat):
        return Repeat(m(rv.operand), rv.count)
    if isinstance(rv, Intrinsic):
        return Intrinsic(rv.name, tuple(m(o) for o in rv.args))
    assert isinstance(rv, StaticRef), rv
    return rv


def rewrite_statement(stmt, op_fn: OperandFn = _keep_operand,
                      place_fn: PlaceFn = _keep_place) -> bool:
    """Apply `op_fn`/`place_fn` (see `rewrite`) inside one statement; True if it changed."""
    def m(op: Operand) -> Operand:
        return _map_operand(op, op_fn, place_fn)

    if isinstance(stmt, Assign):
        place, rv = place_fn(stmt.place, True), map_rvalue(stmt.rvalue, op_fn, place_fn)
        if place != stmt.place or rv != stmt.rvalue:
            stmt.place, stmt.rvalue = place, rv
            return True
    elif isinstance(stmt, Effect):
        args = tuple(m(o) for o in stmt.args)
        if args != tuple(stmt.args):
            stmt.args = args
            return True
    elif isinstance(stmt, AtomicOp):
        ptr, args = m(stmt.ptr), tuple(m(o) for o in stmt.args)
        dest = place_fn(stmt.dest, True) if stmt.dest is not None else None
        if ptr != stmt.ptr or args != tuple(stmt.args) or dest != stmt.dest:
            stmt.ptr, stmt.args, stmt.dest = ptr, args, dest
            return True
    return False


def rewrite_terminator(term: Terminator, op_fn: OperandFn = _keep_operand,
                       place_fn: PlaceFn = _keep_place) -> bool:
    """Apply `op_fn`/`place_fn` (see `rewrite`) inside one terminator; True if it changed."""
    def m(op: Operand) -> Operand:
        return _map_operand(op, op_fn, place_fn)

    if isinstance(term, SwitchInt):
        discr = m(term.discr)
        if discr != term.discr:
            term.discr = discr
            return True
    elif isinstance(term, Assert):
        cond = m(term.cond)
        if cond != term.cond:
            term.cond = cond
            return True
    elif isinstance(term, Call):
        args = tuple(m(o) for o in term.args)
        dest = place_fn(term.destination, True)
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
    "rvalue_operands", "terminator_operands", "statement_reads", "rvalue_reads",
    "terminator_reads", "read_counts", "defs", "address_taken", "single_def_locals",
    "write_once_locals", "never_written", "map_rvalue", "rewrite", "rewrite_statement",
    "rewrite_terminator", "renumber_blocks",
]
