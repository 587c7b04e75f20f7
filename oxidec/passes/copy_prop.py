"""Copy propagation: `copy_prop(body)`.

A local `_b` whose only write is `_b = copy _a` (or `move _a`), where `_a` is an argument
the body never writes or a local written once, always holds `_a`'s value: borrowck has
checked that every read of `_b` comes after that write, and neither local changes
afterwards (neither has its address taken). Reads of `_b` become reads of `_a`:

    _4 = copy _1;                          _4 = copy _1;
    _5 = copy _4;                   ->     _5 = copy _1;
    _6 = Add(copy _5, copy _2);            _6 = Add(copy _1, copy _2);
    _7 = copy (*_5)[_6];                   _7 = copy (*_1)[_6];

The same reasoning forwards fields of an aggregate built once from such values, which is
what the lowering of `get_mut` produces:

    _8 = Option::<&mut f32>(copy _6, move _7);      _8 = Option::<&mut f32>(copy _6, move _7);
    _9 = discriminant(_8);                      ->      _9 = copy _6;
    _10 = copy (_8 as #1).0;                            _10 = copy _7;

Moves of forwarded values become copies (after borrowck a move is a copy of the bits).
The now-unused copies are left for `dead_code`. Last, a temporary that only carries a value
into the next statement is folded into it (rustc's destination propagation, in its
simplest form):

    _9 = Add(copy _4, const 1_i32);
    _4 = move _9;                   ->     _4 = Add(copy _4, const 1_i32);
"""
from __future__ import annotations

from ..mir.layout import LayoutError, field_slot, flat_operands
from ..mir.syntax import (
    Aggregate, Assign, Body, ConstIndex, Constant, Copy, Discriminant, Field, Index, Move, Operand,
    Place, Use,
)
from ..mir.typeof import MirTypeError, place_ty
from ..types import ArrayTy, EnumTy, StructTy, TupleTy
from .dead_code import is_temporary
from ..mir.visit import (
    address_taken, defs, forget_analyses, has_deref, kept, kept_single_defs, never_written,
    read_counts, rewrite_statement, rewrite_terminator, statement_reads_any, terminator_reads,
    write_once_locals,
)


def copy_prop(body: Body) -> bool:
    """Forward copies and aggregate fields; True if the body changed."""
    stable: dict = {}
    changed = _forward(body, stable)
    # `stable` still holds when forwarding changed nothing
    return merge_into_destinations(body, None if changed else stable) or changed


def merge_into_destinations(body: Body, stable: dict | None = None) -> bool:
    """`_t = rv; _x = move _t;` with `_t` a temporary read nowhere else becomes `_x = rv;`
    (what the lowering makes of `x = x + 1` or `let y = a * b`). `stable`: the body's
    `single_def_locals`, when the caller has them."""
    reads = kept(body, read_counts)
    if stable is None:
        stable = kept(body, kept_single_defs)
    changed = False
    for block in body.blocks:
        stmts, out = block.statements, []
        i = 0
        while i < len(stmts):
            s1 = stmts[i]
            s2 = stmts[i + 1] if i + 1 < len(stmts) else None
            if _mergeable(body, s1, s2, reads, stable):
                out.append(Assign(s2.place, s1.rvalue, s2.span))
                changed = True
                i += 2
                continue
            out.append(s1)
            i += 1
        block.statements = out
    return changed


def _mergeable(body: Body, s1, s2, reads, stable) -> bool:
    if not (isinstance(s1, Assign) and isinstance(s2, Assign)):
        return False
    t = s1.place.local
    if s1.place.projection or stable.get(t) is not s1 or not is_temporary(body, t):
        return False
    rv = s2.rvalue
    return (not s2.place.projection and reads[t] == 1
            and isinstance(rv, Use) and isinstance(rv.operand, (Copy, Move))
            and rv.operand.place == Place(t)
            and body.locals[s2.place.local].ty == body.locals[t].ty)


def _forward(body: Body, stable_out: dict | None = None) -> bool:
    """Forward copies and aggregate fields; True if the body changed. `stable_out` gets
    the body's `single_def_locals` as they were before."""
    writes, taken = kept(body, defs), kept(body, address_taken)
    stable = kept(body, kept_single_defs)
    if stable_out is not None:
        stable_out.update(stable)
    # values that never change once set
    fixed = write_once_locals(body, writes, taken) | never_written(body, writes, taken)
    copies = _copy_sources(body, stable, fixed)
    aggregates = _aggregate_fields(body, stable, fixed)
    if not copies and not aggregates:
        return False

    def resolve(place: Place) -> Place:
        """Follow copy chains and aggregate fields to the place that really holds the value."""
        for _ in range(len(body.locals) + 1):
            if place.local in copies:
                src = copies[place.local]
                place = Place(src.local, src.projection + place.projection)
                continue
            agg = aggregates.get(place.local)
            if agg is not None and place.projection:
                op = _field_operand(agg, place.projection[0])
                if isinstance(op, (Copy, Move)):
                    place = Place(op.place.local, op.place.projection + place.projection[1:])
                    continue
            break
        return place

    def operand(op: Operand) -> Operand:
        if op.__class__ is not Copy and op.__class__ is not Move:
            return op
        if op.place.local not in copies and op.place.local not in aggregates:
            return op  # resolve would keep the place (the common case, made cheap)
        new = resolve(op.place)
        agg = aggregates.get(new.local)
        if agg is not None and len(new.projection) == 1:
            field = _field_operand(agg, new.projection[0])
            if isinstance(field, Constant):
                return field
        return op if new is op.place or new == op.place else Copy(new)

    def place_fn(place: Place, is_def: bool) -> Place:
        if not place.projection and (is_def or place.local not in copies):
            return place  # resolve would keep it (the common case, made cheap)
        if not is_def or has_deref(place):  # a def of the local itself keeps its base
            place = resolve(place)
        if not place.projection:
            return place
        proj = tuple([_index(p, copies) for p in place.projection])
        return place if proj == place.projection else Place(place.local, proj)

    # the rewrite changes only reads of the forwarded locals (operands, places, indices):
    # a statement that reads none is left as it is, without the rewrite's walk
    watched = copies.keys() | aggregates.keys()
    changed = False
    for block in body.blocks:
        for stmt in block.statements:
            if statement_reads_any(stmt, watched):
                changed |= rewrite_statement(stmt, operand, place_fn)
        if not watched.isdisjoint(terminator_reads(block.terminator)):
            changed |= rewrite_terminator(block.terminator, operand, place_fn)
    if changed:
        forget_analyses(body)
    if _fold_discriminants(body, aggregates, resolve):
        forget_analyses(body)
        _forward(body)  # forward the tags just exposed (`_9 = copy _6`) too
        return True
    return changed


def _fold_discriminants(body: Body, aggregates, resolve) -> bool:
    """`discriminant(_8)` of an aggregate built once: its tag operand."""
    changed = False
    for block in body.blocks:
        for stmt in block.statements:
            if not (isinstance(stmt, Assign) and isinstance(stmt.rvalue, Discriminant)):
                continue
            place = resolve(stmt.rvalue.place)
            agg = aggregates.get(place.local)
            if agg is None or place.projection or not isinstance(agg.ty, EnumTy):
                continue
            tag = flat_operands(agg)[0]
            if isinstance(tag, (Copy, Move)):
                tag = Copy(tag.place)
            stmt.rvalue = Use(tag)
            changed = True
    return changed


def _copy_sources(body: Body, stable, fixed) -> dict[int, Place]:
    """`_b -> place` for each `_b = copy/move place`, place a fixed local plus fields."""
    out = {}
    for local, stmt in stable.items():
        rv = stmt.rvalue
        if not (isinstance(rv, Use) and isinstance(rv.operand, (Copy, Move))):
            continue
        src = rv.operand.place
        if src.local == local or src.local not in fixed:
            continue
        if not all(isinstance(p, (Field, ConstIndex)) for p in src.projection):
            continue  # a load through a pointer may see a different value later
        if local == 0 or body.locals[local].ty != _local_ty(body, src):
            continue
        out[local] = src
    return out


def _local_ty(body: Body, place: Place):
    try:
        return place_ty(body, place)
    except (MirTypeError, IndexError):
        return None


def _aggregate_fields(body: Body, stable, fixed) -> dict[int, Aggregate]:
    """Aggregates built once, whose every operand is a constant or a fixed local's value."""
    out = {}
    for local, stmt in stable.items():
        rv = stmt.rvalue
        if not isinstance(rv, Aggregate) or local == 0:
            continue
        if not isinstance(rv.ty, (TupleTy, StructTy, EnumTy, ArrayTy)):
            continue
        if all(isinstance(o, Constant) or (
                o.place.local in fixed and o.place.local != local
                and all(isinstance(p, (Field, ConstIndex)) for p in o.place.projection))
               for o in rv.operands):
            out[local] = rv
    return out


def _field_operand(agg: Aggregate, proj) -> Operand | None:
    if isinstance(agg.ty, ArrayTy):
        i = proj.offset if isinstance(proj, ConstIndex) else None
        ops = agg.operands
    elif not isinstance(proj, Field):
        return None
    else:
        try:
            i = field_slot(agg.ty, proj.index, proj.variant)
        except LayoutError:
            return None
        ops = flat_operands(agg)
    if i is None or not 0 <= i < len(ops):
        return None
    return ops[i]


def _index(proj, copies: dict[int, Place]):
    """`Index(_b)` with `_b` a copy of a plain local becomes `Index(_a)`."""
    if isinstance(proj, Index):
        seen = set()
        local = proj.local
        while local in copies and not copies[local].projection and local not in seen:
            seen.add(local)
            local = copies[local].local
        if local != proj.local:
            return Index(local)
    return proj
