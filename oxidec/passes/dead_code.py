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
from ..mir.syntax import Assign, AtomicOp, Body, Call, Index, Intrinsic, Nop, Place
from ..mir.visit import has_deref, read_counts, rewrite


def is_temporary(body: Body, local: int) -> bool:
    return local > body.arg_count and body.locals[local].name is None


def dead_code(body: Body) -> bool:
    """Remove unread temporaries' assignments and `nop`s; True if the body changed."""
    changed = False
    for _ in range(len(body.locals) + 1):  # each round kills at least one more local
        reads = read_counts(body)
        removed = False
        for block in body.blocks:
            kept = [s for s in block.statements if not _is_dead(body, s, reads)]
            if len(kept) != len(block.statements):
                block.statements, removed = kept, True
        if not removed:
            break
        changed = True
    return changed


def _is_dead(body: Body, stmt, reads) -> bool:
    if isinstance(stmt, Nop):
        return True
    if not isinstance(stmt, Assign) or has_deref(stmt.place):
        return False
    if isinstance(stmt.rvalue, Intrinsic) and stmt.rvalue.name in SIDE_EFFECTS:
        return False  # `mbarrier.arrive`: the arrival counts even when the token is unused
    local = stmt.place.local
    return is_temporary(body, local) and reads[local] == 0


def simplify_locals(body: Body) -> bool:
    """Drop locals that nothing mentions and renumber the rest; True if any was dropped."""
    used = set(range(body.arg_count + 1))
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, Assign):
                used.add(stmt.place.local)
            elif isinstance(stmt, AtomicOp) and stmt.dest is not None:
                used.add(stmt.dest.local)
        if isinstance(block.terminator, Call):
            used.add(block.terminator.destination.local)
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
