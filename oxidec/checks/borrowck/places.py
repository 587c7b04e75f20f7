"""Places as the checker sees them: what each statement does to which place, how places
overlap, and how to name a place the way the user wrote it.

Every statement and terminator is read as a list of `Access`es, in evaluation order
(operands left to right, then the destination):

    copy        reads a Copy value                    `copy _3`
    borrow      reads a non-Copy value without moving it (a shared borrow: `idx.get()`,
                `out.len()`), or `&place`
    borrow_mut  `&mut place` (also `get_mut`, which borrows its DisjointSlice mutably)
    move        moves a non-Copy value out            `move _26`
    write       assigns the place                     `_5 = ...`, `(*_9) = ...`
    return      the return place, read by `return`    (liveness only)
    len_internal  the length read inside `get_mut` (needs the slice; no borrow of its own)

An `Index(i)` projection also reads `i` (a `copy` access before the one on the place).
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import types as T
from ...mir import syntax as M
from ...mir.typeof import MirTypeError, place_ty as _place_ty
from ...span import Span
from .facts import BindingScopes


@dataclass(frozen=True)
class Access:
    kind: str
    place: M.Place
    span: Span


Point = tuple[int, int]


def place_ty(body: M.Body, place: M.Place) -> T.Ty:
    try:
        return _place_ty(body, place)
    except (MirTypeError, IndexError):
        return T.ERROR


def carries_ref(ty: T.Ty) -> bool:
    """Does a value of this type hold a reference (and so keep a borrow alive)?"""
    if isinstance(ty, T.RefTy) or is_atomic_view(ty):
        return True
    if isinstance(ty, T.EnumTy):
        return any(carries_ref(t) for v in ty.variants for _, t in v.fields)
    if isinstance(ty, (T.TupleTy,)):
        return any(carries_ref(t) for t in ty.elems)
    if isinstance(ty, T.ArrayTy):
        return carries_ref(ty.elem)
    if isinstance(ty, T.StructTy):
        return any(carries_ref(t) for _, t in ty.fields)
    return False


# ---------------------------------------------------------------------------
# Accesses

class Accesses:
    """The accesses of every point of a body, computed once."""

    def __init__(self, body: M.Body, facts: BindingScopes):
        self.body = body
        self.facts = facts
        self.at: dict[Point, list[Access]] = {}
        self._types: dict[M.Place, T.Ty] = {}
        for b, block in enumerate(body.blocks):
            for i, stmt in enumerate(block.statements):
                self.at[(b, i)] = self._statement(stmt)
            self.at[(b, len(block.statements))] = self._terminator(block.terminator)
            self._internal_len(b, block)

    def _internal_len(self, b: int, block: M.BasicBlock) -> None:
        # `get_mut(idx)` reads the slice's length just before it borrows the slice (both
        # statements carry the receiver's span); that read is part of the `&mut self` borrow,
        # not a separate shared one.
        refs = {(st.span, st.rvalue.place.local) for st in block.statements
                if isinstance(st, M.Assign) and isinstance(st.rvalue, M.Ref)}
        if not refs:
            return
        for i, st in enumerate(block.statements):
            if isinstance(st, M.Assign) and isinstance(st.rvalue, M.Len) and \
                    (st.span, st.rvalue.place.local) in refs:
                self.at[(b, i)] = [Access("len_internal", a.place, a.span)
                                   if a.kind == "borrow" else a for a in self.at[(b, i)]]

    def ty(self, place: M.Place) -> T.Ty:
        ty = self._types.get(place)
        if ty is None:
            ty = self._types[place] = place_ty(self.body, place)
        return ty

    def _index_reads(self, place: M.Place, span: Span, out: list[Access]) -> None:
        for proj in place.projection:
            if isinstance(proj, M.Index):
                out.append(Access("copy", M.Place(proj.local), span))

    def _operand(self, op, span: Span, out: list[Access]) -> None:
        if isinstance(op, M.Constant):
            return
        span = self.facts.span_of(op, span)
        self._index_reads(op.place, span, out)
        if isinstance(op, M.Move):
            out.append(Access("move", op.place, span))
        elif T.is_copy(self.ty(op.place)):
            out.append(Access("copy", op.place, span))
        else:
            out.append(Access("borrow", op.place, span))

    def _rvalue(self, rv, span: Span, out: list[Access]) -> None:
        if isinstance(rv, (M.Use, M.UnaryOp, M.Cast, M.Repeat)):
            self._operand(rv.operand, span, out)
        elif isinstance(rv, M.BinaryOp):
            self._operand(rv.lhs, span, out)
            self._operand(rv.rhs, span, out)
        elif isinstance(rv, M.Aggregate):
            for op in rv.operands:
                self._operand(op, span, out)
        elif isinstance(rv, M.Intrinsic):
            for op in rv.args:
                self._operand(op, span, out)
        elif isinstance(rv, M.Ref):
            self._index_reads(rv.place, span, out)
            out.append(Access("borrow_mut" if rv.mutable else "borrow", rv.place, span))
        elif isinstance(rv, M.Len):
            self._index_reads(rv.place, span, out)
            out.append(Access("borrow", rv.place, span))
        elif isinstance(rv, M.Discriminant):  # reads the tag only: never a move
            self._index_reads(rv.place, span, out)
            out.append(Access("borrow", rv.place, span))

    def _write(self, place: M.Place, span: Span, out: list[Access]) -> None:
        self._index_reads(place, span, out)
        out.append(Access("write", place, span))

    def _statement(self, stmt) -> list[Access]:
        out: list[Access] = []
        if isinstance(stmt, M.Assign):
            rv = stmt.rvalue
            if isinstance(rv, M.Ref) and rv.mutable and is_atomic_view(self.ty(stmt.place)):
                rv = M.Ref(rv.place, False)  # an atomic view shares its element
            self._rvalue(rv, stmt.span, out)
            self._write(stmt.place, stmt.span, out)
        elif isinstance(stmt, M.Effect):
            for op in stmt.args:
                self._operand(op, stmt.span, out)
        elif type(stmt).__name__ == "AtomicOp":
            self._operand(stmt.ptr, stmt.span, out)
            for op in stmt.args:
                self._operand(op, stmt.span, out)
            if stmt.dest is not None:
                self._write(stmt.dest, stmt.span, out)
        return out

    def _terminator(self, term) -> list[Access]:
        out: list[Access] = []
        if isinstance(term, M.SwitchInt):
            self._operand(term.discr, term.span, out)
        elif isinstance(term, M.Assert):
            self._operand(term.cond, term.span, out)
        elif isinstance(term, M.Call):
            for op in term.args:
                if isinstance(op, M.Move) and _is_mut_ref(self.ty(op.place)):
                    # Passing `r: &mut T` to a `&mut T` parameter reborrows it (`&mut *r`)
                    # rather than moving it: `r` is still usable after the call.
                    span = self.facts.span_of(op, term.span)
                    self._index_reads(op.place, span, out)
                    out.append(Access("borrow", op.place, span))
                else:
                    self._operand(op, term.span, out)
            self._write(term.destination, term.span, out)
        elif isinstance(term, M.Return):
            out.append(Access("return", M.Place(0), term.span))
        return out


def is_atomic_view(ty: T.Ty) -> bool:
    """`DeviceAtomicU32` & co: made from `&mut` element addresses, but shared by design
    (every access through one is atomic), so making one is a shared borrow."""
    atomic = getattr(T, "AtomicTy", None)
    return atomic is not None and isinstance(ty, atomic)


def _is_mut_ref(ty: T.Ty) -> bool:
    return isinstance(ty, T.RefTy) and ty.mutable


def statement_span(body: M.Body, point: Point) -> Span:
    b, i = point
    block = body.blocks[b]
    return block.statements[i].span if i < len(block.statements) else block.terminator.span


# ---------------------------------------------------------------------------
# Paths, overlap

def field_prefix(place: M.Place) -> tuple[tuple[M.Field, ...], str | None]:
    """The leading `Field` projections of a place (its move path below the local), and what
    comes after them: None, "deref" or "index"."""
    fields: list[M.Field] = []
    for proj in place.projection:
        if isinstance(proj, M.Field):
            fields.append(proj)
        elif isinstance(proj, M.Deref):
            return tuple(fields), "deref"
        else:
            return tuple(fields), "index"
    return tuple(fields), None


def overlaps(a: M.Place, b: M.Place) -> bool:
    """May two places denote overlapping memory? Different fields are disjoint; indices
    are assumed to collide (as rustc assumes for arrays)."""
    if a.local != b.local:
        return False
    for pa, pb in zip(a.projection, b.projection):
        if isinstance(pa, M.Field) and isinstance(pb, M.Field) and pa != pb:
            return False
        if isinstance(pa, M.ConstIndex) and isinstance(pb, M.ConstIndex) \
                and pa.offset != pb.offset:
            return False
        indices = (M.Index, M.ConstIndex)
        if type(pa) is not type(pb) and not (isinstance(pa, indices) and isinstance(pb, indices)):
            return True  # a type mismatch cannot happen on one local; stay conservative
    return True


# ---------------------------------------------------------------------------
# Names

def static_temps(body: M.Body) -> dict[int, str]:
    """Locals that hold the address of a static (`_t = StaticRef(k$TILE)`) -> its name."""
    out: dict[int, str] = {}
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, M.Assign) and isinstance(stmt.rvalue, M.StaticRef) \
                    and not stmt.place.projection:
                out[stmt.place.local] = stmt.rvalue.name
    return out


def user_static_name(mangled: str) -> str:
    return mangled.split("$")[-1]


def local_name(body: M.Body, local: int) -> str | None:
    if not 0 <= local < len(body.locals):
        return None
    name = body.locals[local].name
    return name if name and name != "_" else None


def describe(body: M.Body, place: M.Place, statics: dict[int, str] | None = None) -> str | None:
    """The place as the user would write it (`x`, `s.f`, `x[_]`, `*r`), or None for a
    compiler temporary."""
    name = local_name(body, place.local)
    is_static = False
    if name is None and statics and place.local in statics:
        name = user_static_name(statics[place.local])
        is_static = True
    if name is None:
        return None
    text = name
    ty = body.locals[place.local].ty
    projs = place.projection
    for j, proj in enumerate(projs):
        nxt = projs[j + 1] if j + 1 < len(projs) else None
        if isinstance(proj, M.Deref):
            implicit = is_static or isinstance(ty, T.DisjointSliceTy) or (
                isinstance(ty, (T.RefTy, T.PtrTy)) and isinstance(nxt, (M.Field, M.Index,
                                                                         M.ConstIndex))
                and isinstance(ty, T.RefTy))
            if not implicit:
                text = f"*{text}" if nxt is None else f"(*{text})"
            is_static = False
            ty = ty.inner if isinstance(ty, (T.RefTy, T.PtrTy)) else \
                T.SliceTy(ty.elem) if isinstance(ty, T.DisjointSliceTy) else T.ERROR
        elif isinstance(proj, M.Field):
            if isinstance(ty, T.StructTy) and proj.index < len(ty.fields):
                fname, ty = ty.fields[proj.index]
                text = f"{text}.{fname}"
            elif isinstance(ty, T.TupleTy) and proj.index < len(ty.elems):
                text = f"{text}.{proj.index}"
                ty = ty.elems[proj.index]
            elif isinstance(ty, T.EnumTy) and proj.variant is not None:
                v = ty.variants[proj.variant]
                fname, ty = v.fields[proj.index]
                text = f"({text} as {v.name}).{fname}"
            else:
                text = f"{text}.{proj.index}"
                ty = T.ERROR
        elif isinstance(proj, M.Index):
            text = f"{text}[_]"
            ty = getattr(ty, "elem", T.ERROR)
        elif isinstance(proj, M.ConstIndex):
            text = f"{text}[{proj.offset}]"
            ty = getattr(ty, "elem", T.ERROR)
    return text
