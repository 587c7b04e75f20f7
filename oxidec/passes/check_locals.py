"""What `check_elim` knows of a body's locals before its dataflow runs: the locals whose
values a comparison can read, those the state can say anything about and those of them
dead where any block ends (`tracked_locals`), and the locals that only hold widened
unsigned values (`widened_locals`)."""
from __future__ import annotations

from ..mir.syntax import (
    Assert, Assign, BinaryOp, Body, Cast, Constant, Copy, Index, Len, Move, Ref, SwitchInt,
    UnaryOp, Use,
)
from ..mir.typeof import MirTypeError, operand_ty
from ..mir.visit import statement_reads, terminator_reads
from ..types import IntTy


def tracked_locals(body: Body, writes: dict,
                   taken: set[int]) -> tuple[set[int], set[int], set[int]]:
    """(keyed, tracked, block_local) of check_elim's dataflow. (`writes`, `taken`: the
    body's `defs` and `address_taken`.)

    keyed: the locals whose value keys (check_elim's value numbering) a comparison `x < y`
    can read: the operands of every `Lt`/`Gt`, then, transitively, the operands of the
    writes (copies, casts, operators: what a key is made of) of those locals. Only their
    keys are kept. A key is read by a comparison, by the key of another value, and by
    nothing else (the facts and conditions are comparisons), so the keys of the other
    locals (most of a body: float arithmetic, addresses, loop sums) never reach a fact:
    dropping them changes no decision, and spares every fork a copy of them and every join
    a comparison of them.

    tracked: the keyed locals and those a write can give a condition or implied facts
    (`Lt`, `Gt`, `BitAnd`, a copy of a local, `false`). Every key, fact and condition
    mentions keyed locals only, and only tracked locals get conditions or implied facts,
    so the state never holds anything about another local: writing one changes nothing,
    and the dataflow skips those writes.

    block_local: the tracked locals that are dead where any block ends: locals read only as
    the test of an `assert` or `switchInt`, each in a block that assigns them first (the
    bool of a loop's or an index's test), or never read, so that every path to a read
    passes its block's assignment. The state forgets what it knows of them where a block
    that assigns them ends: nothing reads it again, so no decision changes, and the states
    after a loop's exit no longer hold the conditions of every loop nested in it (a join
    of the states before and after the loop was as costly as the nest was deep)."""
    keyed: set[int] = set()
    tracked: set[int] = set()
    work: list[int] = []
    read = set(taken)  # the locals read otherwise than as such a test (or more)
    read.add(0)
    assigned: dict[int, int] = {}  # local -> the last block seen to assign it

    def add(op) -> None:
        c = op.__class__
        if (c is Copy or c is Move) and not op.place.projection:
            local = op.place.local
            if local not in keyed:
                keyed.add(local)
                work.append(local)

    for b, block in enumerate(body.blocks):
        for stmt in block.statements:
            if type(stmt) is not Assign or stmt.place.projection:
                read.update(statement_reads(stmt))
                continue
            local = stmt.place.local
            assigned[local] = b
            rv = stmt.rvalue
            t = type(rv)
            # the reads (statement_reads, or more): the operands, the place of a `Len` or `&`
            if t is BinaryOp:
                ops = (rv.lhs, rv.rhs)
                op = rv.op
                if op == "lt" or op == "gt":
                    add(rv.lhs)
                    add(rv.rhs)
                    tracked.add(local)
                elif op == "bitand":
                    tracked.add(local)
            elif t is Use:
                o = rv.operand
                ops = (o,)
                c = o.__class__
                if (c is Copy or c is Move) and not o.place.projection \
                        or c is Constant and o.value is False:
                    tracked.add(local)
            elif t is Cast or t is UnaryOp:
                ops = (rv.operand,)
            elif t is Len or t is Ref:
                _add_place_reads(read, rv.place)
                continue
            else:
                read.update(statement_reads(stmt))
                continue
            for o in ops:
                c = o.__class__
                if c is Copy or c is Move:
                    place = o.place
                    if place.projection:
                        _add_place_reads(read, place)
                    else:
                        read.add(place.local)
        term = block.terminator
        t = type(term)
        o = term.cond if t is Assert else term.discr if t is SwitchInt else None
        c = o.__class__
        if (c is Copy or c is Move) and not o.place.projection:
            if assigned.get(o.place.local) != b:
                read.add(o.place.local)  # read where its block has not assigned it
        else:
            read.update(terminator_reads(term))
    while work:
        for stmt in writes.get(work.pop(), ()):
            if type(stmt) is not Assign or stmt.place.projection:
                continue  # (a write with a projection leaves the local without a key)
            rv = stmt.rvalue
            t = type(rv)
            if t is Use or t is Cast:
                add(rv.operand)
            elif t is BinaryOp:
                add(rv.lhs)
                add(rv.rhs)
    tracked |= keyed
    return keyed, tracked, tracked - read


def widened_locals(body: Body, writes: dict, taken: set[int],
                   among: set[int]) -> dict[int, int]:
    """The locals of `among` whose every write widens an unsigned value (`data[i] as usize`
    of a u8), with the largest value they can hold: `2^bits - 1` of the narrowest source.
    (`writes`, `taken`: the body's `defs` and `address_taken`.)"""
    out: dict[int, int] = {}
    for local in among:
        sites = writes.get(local)
        if not sites or local in taken:
            continue
        top = 0
        for stmt in sites:
            rv = stmt.rvalue if isinstance(stmt, Assign) and not stmt.place.projection else None
            src = _cast_source_ty(body, rv) if isinstance(rv, Cast) else None
            if not (isinstance(src, IntTy) and not src.signed and isinstance(rv.ty, IntTy)
                    and not rv.ty.signed and src.bits <= rv.ty.bits):
                break
            top = max(top, (1 << src.bits) - 1)
        else:
            out[local] = top
    return out


def _cast_source_ty(body: Body, rv: Cast):
    try:
        return operand_ty(body, rv.operand)
    except MirTypeError:
        return None


def _add_place_reads(out: set[int], place) -> None:
    """out and the locals a read of the place reads (its base and its indices)."""
    out.add(place.local)
    for p in place.projection:
        if type(p) is Index:
            out.add(p.local)


__all__ = ["tracked_locals", "widened_locals"]
