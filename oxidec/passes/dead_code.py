"""Dead code: `dead_code(body)` and `simplify_locals(body)`.

`dead_code` deletes writes to temporaries that nothing reads, to a fixpoint, plus `nop`s.
A temporary is a local with no user name that is neither the return place nor an
argument. Every rvalue but the registry's `side_effect` intrinsics (`mbarrier.arrive`,
`volatile_load`) is pure, so its assignment can go; a write through a pointer
(`(*_7) = ...`) is a store to memory and stays, as do `Effect` statements (barriers,
printf), atomics (`AtomicOp`, even when nothing reads the old value) and calls, whose
destination is kept.

    _5 = Len((*_3));                             _5 = Len((*_3));
    _6 = Lt(copy _4, copy _5);                   _6 = Lt(copy _4, copy _5);
    _9 = Add(copy _4, const 1_usize);     ->     (*_7) = copy _6;
    _10 = Mul(copy _9, const 2_usize);           sync_threads();
    (*_7) = copy _6;
    sync_threads();

(`_10` is never read, so it goes; then `_9` is no longer read, and goes the next round.)

`simplify_locals` then drops the declarations of locals that no statement mentions any
more and renumbers the rest in order (rustc's SimplifyLocals), so `_9` and `_10` above
leave the `let` list too. Arguments and the return place keep their numbers.
"""
from __future__ import annotations

from ..device_api.ops import SIDE_EFFECTS
from ..mir.syntax import Assign, Body, Index, Intrinsic, Nop, Place
from collections import Counter

from ..mir.visit import (
    forget_analyses, has_deref, kept, read_counts, rewrite, statement_reads, write_bases,
)


def is_temporary(body: Body, local: int) -> bool:
    return local > body.arg_count and body.locals[local].name is None


def dead_code(body: Body) -> bool:
    """Remove unread temporaries' assignments and `nop`s; True if the body changed."""
    # kept (mir.visit.kept): address_reduce and strength_reduce begin with a dead_code of
    # their own, which the pass driver has just run as a step of its own
    dead, nops = kept(body, _dead_assignments)
    if not dead and not nops:
        return False
    forget_analyses(body)
    for block in body.blocks:
        block.statements = [s for s in block.statements
                            if type(s) is not Nop and id(s) not in dead]
    return True


def _dead_assignments(body: Body) -> tuple[set[int], bool]:
    """(id() of the assignments to delete, whether there are `nop`s).

    A worklist over read counts: deleting an assignment uncounts its reads, and a temporary
    whose count falls to zero has its assignments deleted in turn. Reads only fall, so this
    deletes what repeated rounds of "delete every unread temporary's assignments" would."""
    reads = kept(body, read_counts)
    writes: dict[int, list] = {}  # temporary -> its deletable assignments
    nops = False
    first_temp, decls = body.arg_count + 1, body.locals
    for block in body.blocks:
        for stmt in block.statements:
            t = type(stmt)
            if t is Assign:
                # deletable: an assignment to a temporary's own storage, which only
                # matters if it is read; `mbarrier.arrive` counts even when its token is unused
                place = stmt.place
                local = place.local
                if local < first_temp or decls[local].name is not None \
                        or (place.projection and has_deref(place)):
                    continue
                rv = stmt.rvalue
                if type(rv) is Intrinsic and rv.name in SIDE_EFFECTS:
                    continue
                got = writes.get(local)
                if got is None:
                    writes[local] = [stmt]
                else:
                    got.append(stmt)
            elif t is Nop:
                nops = True
    dead: set[int] = set()  # id() of the deleted statements
    work = [local for local in writes if reads[local] == 0]
    if work:
        reads = Counter(reads)  # its own counts, which fall below (the kept ones are shared)
    while work:
        for stmt in writes[work.pop()]:
            if id(stmt) in dead:
                continue
            dead.add(id(stmt))
            for r in statement_reads(stmt):
                reads[r] -= 1
                if reads[r] == 0 and r in writes:
                    work.append(r)
    return dead, nops


def simplify_locals(body: Body) -> bool:
    """Drop locals that nothing mentions and renumber the rest; True if any was dropped."""
    used = set(range(body.arg_count + 1)) | kept(body, write_bases)
    used |= set(kept(body, read_counts))
    if len(used) == len(body.locals):
        return False
    forget_analyses(body)
    survivors = sorted(used)
    new_index = {old: new for new, old in enumerate(survivors)}
    # the locals below `first` keep their numbers: a place that mentions only those is
    # returned as itself, so the statements that hold it are left as they are
    first = next((new for new, old in enumerate(survivors) if new != old), len(survivors))
    plain: dict[int, Place] = {}  # old local -> its renumbered place without projection

    def renumber(place: Place, is_def: bool) -> Place:
        local, projection = place.local, place.projection
        if not projection:
            if local < first:
                return place
            new = plain.get(local)
            if new is None:
                new = plain[local] = Place(new_index[local])
            return new
        if local < first and all(type(p) is not Index or p.local < first for p in projection):
            return place
        proj = tuple(Index(new_index[p.local]) if type(p) is Index else p for p in projection)
        return Place(new_index[local], proj)

    rewrite(body, lambda op: op, renumber)
    body.locals = [body.locals[old] for old in survivors]
    return True


__all__ = ["dead_code", "simplify_locals", "is_temporary"]
