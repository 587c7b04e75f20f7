"""What `check_elim` knows of a body's locals before its dataflow runs: the locals whose
values a comparison can read and those the state can say anything about (`tracked_locals`),
the locals that only hold widened unsigned values (`widened_locals`), and the bools that
are dead where any block ends (`block_local_bools`)."""
from __future__ import annotations

from ..mir.syntax import (
    Assert, Assign, BinaryOp, Body, Cast, Constant, Copy, Move, SwitchInt, Use,
)
from ..mir.typeof import MirTypeError, operand_ty
from ..types import IntTy


def tracked_locals(body: Body, writes: dict) -> tuple[set[int], set[int]]:
    """(keyed, tracked) of check_elim's dataflow. (`writes`: the body's `defs`.)

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
    and the dataflow skips those writes."""
    keyed: set[int] = set()
    tracked: set[int] = set()
    work: list[int] = []

    def add(op) -> None:
        c = op.__class__
        if (c is Copy or c is Move) and not op.place.projection:
            local = op.place.local
            if local not in keyed:
                keyed.add(local)
                work.append(local)

    for block in body.blocks:
        for stmt in block.statements:
            if type(stmt) is not Assign or stmt.place.projection:
                continue
            rv = stmt.rvalue
            t = type(rv)
            if t is BinaryOp:
                op = rv.op
                if op == "lt" or op == "gt":
                    add(rv.lhs)
                    add(rv.rhs)
                    tracked.add(stmt.place.local)
                elif op == "bitand":
                    tracked.add(stmt.place.local)
            elif t is Use:
                o = rv.operand
                c = o.__class__
                if (c is Copy or c is Move) and not o.place.projection \
                        or c is Constant and o.value is False:
                    tracked.add(stmt.place.local)
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
    return keyed, tracked | keyed


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


def block_local_bools(body: Body, reads: dict, taken: set[int]) -> dict[int, tuple]:
    """Block -> the locals it assigns that are dead where any block ends: locals read only
    as the test of an `assert` or `switchInt`, each in a block that assigns them first
    (the bool of a loop's or an index's test), so that every path to a read passes its
    block's assignment. (`reads`: the body's read_counts; `taken`: its address_taken.)

    The state forgets what it knows of them when their block ends: nothing reads it
    again, so no decision changes, and the states after a loop's exit no longer hold the
    conditions of every loop nested in it (a join of the states before and after the
    loop was as costly as the nest was deep)."""
    tests: dict[int, int] = {}  # local -> its reads as a test of a block that assigns it
    assigned: list[set[int]] = []
    for block in body.blocks:
        mine = {s.place.local for s in block.statements
                if type(s) is Assign and not s.place.projection}
        assigned.append(mine)
        term = block.terminator
        t = type(term)
        op = term.cond if t is Assert else term.discr if t is SwitchInt else None
        c = op.__class__ if op is not None else None
        if (c is Copy or c is Move) and not op.place.projection:
            local = op.place.local
            tests[local] = tests.get(local, 0) + 1 if local in mine else -1 << 30
    local_bools = {local for local, n in tests.items()
                   if n > 0 and reads.get(local) == n and local != 0 and local not in taken}
    out = {}
    for b, mine in enumerate(assigned):
        dead = tuple(sorted(mine & local_bools))
        if dead:
            out[b] = dead
    return out


__all__ = ["block_local_bools", "tracked_locals", "widened_locals"]
