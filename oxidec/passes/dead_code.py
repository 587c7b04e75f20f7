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
from ..mir.visit import has_deref, read_counts, rewrite, statement_reads, write_bases


def is_temporary(body: Body, local: int) -> bool:
    return local > body.arg_count and body.locals[local].name is None


def dead_code(body: Body) -> bool:
    """Remove unread temporaries' assignments and `nop`s; True if the body changed.

    A worklist over read counts: deleting an assignment uncounts its reads, and a temporary
    whose count falls to zero has its assignments deleted in turn. Reads only fall, so this
    deletes what repeated rounds of "delete every unread temporary's assignments" would."""
    reads = read_counts(body)
    writes: dict[int, list] = {}  # temporary -> its deletable assignments
    nops = False
    for block in body.blocks:
        for stmt in block.statements:
            if type(stmt) is Nop:
                nops = True
            elif _deletable(body, stmt):
                writes.setdefault(stmt.place.local, []).append(stmt)
    dead: set[int] = set()  # id() of the deleted statements
    work = [local for local in writes if reads[local] == 0]
    while work:
        for stmt in writes[work.pop()]:
            if id(stmt) in dead:
                continue
            dead.add(id(stmt))
            for r in statement_reads(stmt):
                reads[r] -= 1
                if reads[r] == 0 and r in writes:
                    work.append(r)
    if not dead and not nops:
        return False
    for block in body.blocks:
        block.statements = [s for s in block.statements
                            if type(s) is not Nop and id(s) not in dead]
    return True


def _deletable(body: Body, stmt) -> bool:
    """An assignment to a temporary's own storage that only matters if it is read."""
    if type(stmt) is not Assign or has_deref(stmt.place):
        return False
    if type(stmt.rvalue) is Intrinsic and stmt.rvalue.name in SIDE_EFFECTS:
        return False  # `mbarrier.arrive`: the arrival counts even when the token is unused
    return is_temporary(body, stmt.place.local)


def simplify_locals(body: Body) -> bool:
    """Drop locals that nothing mentions and renumber the rest; True if any was dropped."""
    used = set(range(body.arg_count + 1)) | write_bases(body)
    used |= set(read_counts(body))
    if len(used) == len(body.locals):
        return False
    new_index = {old: new for new, old in enumerate(sorted(used))}

    def renumber(place: Place, is_def: bool) -> Place:
        proj = tuple(Index(new_index[p.local]) if isinstance(p, Index) else p
                     for p in place.projection)
        return Place(new_index[place.local], proj)

    rewrite(body, lambda op: op, renumber)
    body.locals = [body.locals[old] for old in sorted(used)]
    return True


__all__ = ["dead_code", "simplify_locals", "is_temporary"]
