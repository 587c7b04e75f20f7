"""References to register locals: which locals alias which place, and which references
escape (passed to a function, stored in a value, reassigned, returned, converted to a
pointer). The checks report the escapes (OX0002) and read through the aliases; the
`ref_elim` pass replaces the aliases by the places they point to.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import syntax as M
from .typeof import place_ty
from .visit import rvalue_operands
from ..span import Span
from ..types import USIZE, PtrTy, RefTy, SliceTy


@dataclass
class Escape:
    root: int  # the reference local made by the borrow itself
    borrow_span: Span
    use_span: Span
    how: str  # "passed to `f`", "stored in a value", ...


@dataclass
class RefAnalysis:
    # alias local -> (the local it reborrows or copies, or None for a root borrow;
    #                 the projection it adds; the defining statement's position)
    defs: dict[int, tuple[int | None, M.Place, tuple[int, int]]] = field(default_factory=dict)
    roots: dict[int, int] = field(default_factory=dict)  # alias -> its root borrow's alias
    escapes: list[Escape] = field(default_factory=list)
    # every root borrow ref_elim must keep (its reference escapes, or feeds a variable that
    # is assigned more than once): the place it borrows then lives in memory
    kept: set[int] = field(default_factory=set)

    def target(self, alias: int) -> M.Place:
        """The place an alias points to, composed down to the register local."""
        base, place, _ = self.defs[alias]
        if base is None:
            return place
        inner = self.target(base)
        return M.Place(inner.local, inner.projection + place.projection)

    def resolve(self, place: M.Place) -> M.Place:
        """`(*r).f` -> `x.f` when r is an alias of x; any other place unchanged."""
        if place.local in self.defs and place.projection and \
                isinstance(place.projection[0], M.Deref):
            t = self.target(place.local)
            return M.Place(t.local, t.projection + place.projection[1:])
        return place


def _is_register_place(place: M.Place) -> bool:
    return not any(isinstance(p, M.Deref) for p in place.projection)


def takes_address(ty) -> bool:
    """A `Ref` into a local of this type takes the address of the place it borrows: a raw
    pointer (`&raw mut x`, `arr.as_mut_ptr()`) or a slice (`&arr` as `&[T]`). Such a place
    cannot stay in registers: its local lives in memory instead (ptx/regalloc), and the
    reference is not an alias for ref_elim to replace."""
    return isinstance(ty, PtrTy) or (isinstance(ty, RefTy) and isinstance(ty.inner, SliceTy))


def address_taken(body: M.Body) -> set[int]:
    """The register locals whose address a `Ref` takes, once ref_elim has replaced the
    references it can by the places they point to: the ones left (a raw pointer, a slice,
    a reference passed to a function, stored or returned) need the local in memory."""
    out = set()
    for block in body.blocks:
        for st in block.statements:
            if isinstance(st, M.Assign) and isinstance(st.rvalue, M.Ref) and \
                    _is_register_place(st.rvalue.place):
                out.add(st.rvalue.place.local)
    return out


def _dest_ty(body: M.Body, place: M.Place):
    return place_ty(body, place)


def _stmt_places(stmt):
    """(place, role) pairs a statement mentions: role is "dest", "operand", "ref", "len"."""
    if isinstance(stmt, M.Assign):
        rv = stmt.rvalue
        for op in rvalue_operands(rv):
            if isinstance(op, (M.Copy, M.Move)):
                yield op.place, "operand"
        if isinstance(rv, M.Ref):
            yield rv.place, "ref"
        elif isinstance(rv, (M.Len, M.Discriminant)):
            yield rv.place, "len"
        yield stmt.place, "dest"
    elif isinstance(stmt, M.Effect):
        for op in stmt.args:
            if isinstance(op, (M.Copy, M.Move)):
                yield op.place, "effect"
    elif type(stmt).__name__ == "AtomicOp":
        for op in (stmt.ptr, *stmt.args):
            if isinstance(op, (M.Copy, M.Move)):
                yield op.place, "effect"
        if stmt.dest is not None:
            yield stmt.dest, "dest"


def _term_places(term):
    if isinstance(term, M.SwitchInt) and isinstance(term.discr, (M.Copy, M.Move)):
        yield term.discr.place, "operand"
    elif isinstance(term, M.Assert) and isinstance(term.cond, (M.Copy, M.Move)):
        yield term.cond.place, "operand"
    elif isinstance(term, M.Call):
        for op in term.args:
            if isinstance(op, (M.Copy, M.Move)):
                yield op.place, "call"
        yield term.destination, "dest"


def analyse(body: M.Body) -> RefAnalysis:
    result = RefAnalysis()
    if not any(isinstance(st, M.Assign) and isinstance(st.rvalue, M.Ref)
               and _is_register_place(st.rvalue.place)
               and not takes_address(_dest_ty(body, st.place))
               for blk in body.blocks for st in blk.statements):
        return result  # the common case: no reference to a register local at all
    ndefs: dict[int, int] = {}
    redefs: dict[int, list[Span]] = {}
    for block in body.blocks:
        for stmt in block.statements:
            for place, role in _stmt_places(stmt):
                if role == "dest" and not (place.projection and
                                           isinstance(place.projection[0], M.Deref)):
                    ndefs[place.local] = ndefs.get(place.local, 0) + 1
                    redefs.setdefault(place.local, []).append(stmt.span)
        if isinstance(block.terminator, M.Call):
            d = block.terminator.destination.local
            ndefs[d] = ndefs.get(d, 0) + 1

    # Root borrows and the single-definition locals derived from them, to a fixpoint.
    candidates: dict[int, tuple[M.Assign, tuple[int, int]]] = {}
    for b, block in enumerate(body.blocks):
        for i, stmt in enumerate(block.statements):
            if isinstance(stmt, M.Assign) and not stmt.place.projection:
                candidates[stmt.place.local] = (stmt, (b, i))
    roots_made: dict[int, Span] = {}
    changed = True
    while changed:
        changed = False
        for local, (stmt, at) in candidates.items():
            if local in result.defs:
                continue
            rv = stmt.rvalue
            if isinstance(rv, M.Ref) and _is_register_place(rv.place) and \
                    not takes_address(body.locals[local].ty):
                result.defs[local] = (None, rv.place, at)
                result.roots[local] = local
                roots_made[local] = stmt.span
                changed = True
            elif isinstance(rv, M.Ref) and rv.place.projection and \
                    isinstance(rv.place.projection[0], M.Deref) and \
                    rv.place.local in result.defs and \
                    _is_register_place(M.Place(0, rv.place.projection[1:])):
                result.defs[local] = (rv.place.local, M.Place(0, rv.place.projection[1:]), at)
                result.roots[local] = result.roots[rv.place.local]
                changed = True
            elif isinstance(rv, M.Use) and isinstance(rv.operand, (M.Copy, M.Move)) and \
                    not rv.operand.place.projection and rv.operand.place.local in result.defs:
                base = rv.operand.place.local
                result.defs[local] = (base, M.Place(0), at)
                result.roots[local] = result.roots[base]
                changed = True
            elif isinstance(rv, M.Use) and isinstance(rv.operand, (M.Copy, M.Move)) and \
                    rv.operand.place.projection == (M.Deref(),) and \
                    _ref_to_alias(result.defs, rv.operand.place.local) is not None:
                # `r2 = &r1; x = *r2` with r1 an alias: x is r1 (a closure's `&&T` item)
                inner = _ref_to_alias(result.defs, rv.operand.place.local)
                result.defs[local] = (inner, M.Place(0), at)
                result.roots[local] = result.roots[inner]
                changed = True
    # Every mention of an alias must be its definition, the source of another alias's
    # definition, or a dereference.
    bad = result.kept
    for b, block in enumerate(body.blocks):
        for stmt in block.statements:
            if isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Ref) and \
                    stmt.place.projection and _is_register_place(stmt.rvalue.place) and \
                    not takes_address(_dest_ty(body, stmt.place)):
                # `s.r = &mut x`: a reference stored into a value never becomes an alias.
                result.escapes.append(Escape(-1, stmt.span, stmt.span, "stored in a value"))
    if not result.defs:
        return result

    def escape(alias: int, span: Span, how: str) -> None:
        root = result.roots[alias]
        if root in bad:
            return
        bad.add(root)
        result.escapes.append(Escape(root, roots_made[root], span, how))

    # A variable that receives a reference and is assigned more than once: one error, at
    # its first borrow, pointing at another assignment; the other borrows that flow into
    # it are unusable too (the error already names the variable).
    multi: dict[int, list[tuple[int, Span]]] = {}
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, M.Assign) and not stmt.place.projection and \
                    ndefs.get(stmt.place.local, 0) > 1 and isinstance(stmt.rvalue, M.Use) and \
                    isinstance(stmt.rvalue.operand, (M.Copy, M.Move)) and \
                    not stmt.rvalue.operand.place.projection and \
                    stmt.rvalue.operand.place.local in result.defs:
                root = result.roots[stmt.rvalue.operand.place.local]
                multi.setdefault(stmt.place.local, []).append((root, stmt.span))
    for local, feeds in multi.items():
        root, first = feeds[0]
        others = [sp for sp in redefs.get(local, []) if sp != first] or [first]
        if root not in bad:
            result.escapes.append(Escape(root, roots_made[root], others[0],
                                         "replaced by another one"))
        bad.update(r for r, _ in feeds)
    for alias in result.defs:
        if ndefs.get(alias, 0) > 1:
            (b, i) = result.defs[alias][2]
            own = body.blocks[b].statements[i].span
            others = [sp for sp in redefs.get(alias, []) if sp != own] or [own]
            escape(alias, others[0], "reassigned")
    for b, block in enumerate(body.blocks):
        for i, stmt in enumerate(block.statements):
            defining = isinstance(stmt, M.Assign) and not stmt.place.projection and \
                stmt.place.local in result.defs and result.defs[stmt.place.local][2] == (b, i)
            for place, role in _stmt_places(stmt):
                if place.local not in result.defs:
                    continue
                derefs = bool(place.projection) and isinstance(place.projection[0], M.Deref)
                if derefs:
                    continue
                if role == "dest" and defining and not place.projection:
                    continue
                if defining and role in ("operand", "ref"):
                    continue  # the copy/reborrow that makes the next alias
                if role == "dest":
                    escape(place.local, stmt.span, "reassigned")
                elif isinstance(stmt, M.Assign) and stmt.place.local == 0:
                    escape(place.local, stmt.span, "returned")
                elif isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Aggregate):
                    escape(place.local, stmt.span, "stored in a value")
                elif isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Cast):
                    escape(place.local, stmt.span, "converted to a raw pointer")
                elif isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.Use):
                    escape(place.local, stmt.span, "copied into a variable that is reassigned")
                else:
                    escape(place.local, stmt.span, "used as a value")
        term = block.terminator
        for place, role in _term_places(term):
            if place.local not in result.defs:
                continue
            if place.projection and isinstance(place.projection[0], M.Deref):
                continue
            if role == "call":
                escape(place.local, term.span, f"passed to `{term.func}`")
            elif role == "dest":
                escape(place.local, term.span, "reassigned")
            else:
                escape(place.local, term.span, "used as a value")
    return result


def _ref_to_alias(defs: dict, local: int) -> int | None:
    """The alias `r1` when `local` is (a copy of) `&r1`, a reference to an alias local."""
    if local not in defs:
        return None
    base, own, _ = defs[local]
    while base is not None and own == M.Place(0):
        base, own, _ = defs[base]
    if base is None and not own.projection and own.local in defs:
        return own.local
    return None
