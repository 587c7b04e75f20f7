"""ref_elim: references to register locals become direct uses of the place.

The emitter keeps locals in registers, which have no address, so `&x` cannot be emitted.
After borrowck has checked the borrows, a reference to a local that is assigned once and
only ever used through `*r` (in the same body) is replaced by the place it points to:

    _5 = &mut _2[_3];            _9 = copy _3;         // the index, as it was
    _6 = move _5;           =>   nop;
    (*_6) = const 1_i32;         _2[_9] = const 1_i32;
    _7 = copy (*_6);             _7 = copy _2[_9];

Chains of copies and moves of the reference (lowering makes a temporary for every
subexpression) and reborrows (`&mut (*r).f`) resolve to the same place. An index in the
borrowed place is copied at the borrow, so that `&mut a[i]` keeps meaning element i even
if `i` changes while the reference is alive (borrowck forbids changing `a` itself).

`mir/refs.py` (`analyse`) finds the references that cannot be eliminated (passed to a function,
stored in a value, reassigned, returned, converted to a pointer); borrowck reports those
as OX0002 before any pass runs, so this pass only ever meets eliminable ones.
"""
from __future__ import annotations

from ..mir import syntax as M
from ..mir.refs import _is_register_place, analyse
from ..mir.visit import rvalue_operands
from ..span import Span
from ..types import USIZE


def ref_elim(body: M.Body) -> bool:
    """Replace eliminable references to register locals by the places they point to."""
    info = analyse(body)
    if not info.defs:
        return False
    bad = {e.root for e in info.escapes} | info.kept
    aliases = {a for a in info.defs if info.roots[a] not in bad}
    if not aliases:
        return False
    # Snapshot the indices of each borrowed place at its borrow.
    snap: dict[int, M.Place] = {}  # alias -> its place with snapshotted indices (own part)
    inserts: dict[tuple[int, int], list[M.Statement]] = {}
    for a in aliases:
        base, place, (b, i) = info.defs[a]
        span = body.blocks[b].statements[i].span
        projs, copies = [], []
        for p in place.projection:
            if isinstance(p, M.Index):
                body.locals.append(M.LocalDecl(USIZE, None, True, span))
                s = len(body.locals) - 1
                copies.append(M.Assign(M.Place(s), M.Use(M.Copy(M.Place(p.local))), span))
                projs.append(M.Index(s))
            else:
                projs.append(p)
        snap[a] = M.Place(place.local, tuple(projs))
        inserts[(b, i)] = copies or [M.Nop(span)]

    def target(a: int) -> M.Place:
        base = info.defs[a][0]
        own = snap[a]
        if base is None:
            return own
        inner = target(base)
        return M.Place(inner.local, inner.projection + own.projection)

    def fix(place: M.Place) -> M.Place:
        if place.local in aliases and place.projection and \
                isinstance(place.projection[0], M.Deref):
            t = target(place.local)
            return M.Place(t.local, t.projection + place.projection[1:])
        return place

    def fix_op(op):
        if isinstance(op, M.Copy):
            return M.Copy(fix(op.place))
        if isinstance(op, M.Move):
            return M.Move(fix(op.place))
        return op

    def fix_rv(rv):
        if isinstance(rv, M.Use):
            return M.Use(fix_op(rv.operand))
        if isinstance(rv, M.UnaryOp):
            return M.UnaryOp(rv.op, fix_op(rv.operand))
        if isinstance(rv, M.Cast):
            return M.Cast(fix_op(rv.operand), rv.ty)
        if isinstance(rv, M.Repeat):
            return M.Repeat(fix_op(rv.operand), rv.count)
        if isinstance(rv, M.BinaryOp):
            return M.BinaryOp(rv.op, fix_op(rv.lhs), fix_op(rv.rhs))
        if isinstance(rv, M.Aggregate):
            return M.Aggregate(rv.ty, tuple(fix_op(o) for o in rv.operands), rv.variant)
        if isinstance(rv, M.Intrinsic):
            return M.Intrinsic(rv.name, tuple(fix_op(o) for o in rv.args))
        if isinstance(rv, M.Ref):
            return M.Ref(fix(rv.place), rv.mutable)
        if isinstance(rv, M.Len):
            return M.Len(fix(rv.place))
        if isinstance(rv, M.Discriminant):
            return M.Discriminant(fix(rv.place))
        return rv

    for b, block in enumerate(body.blocks):
        out: list = []
        for i, stmt in enumerate(block.statements):
            if (b, i) in inserts:
                out.extend(inserts[(b, i)])
                continue
            if isinstance(stmt, M.Assign):
                stmt.place = fix(stmt.place)
                stmt.rvalue = fix_rv(stmt.rvalue)
            elif isinstance(stmt, M.Effect):
                stmt.args = tuple(fix_op(o) for o in stmt.args)
            elif type(stmt).__name__ == "AtomicOp":
                stmt.ptr = fix_op(stmt.ptr)
                stmt.args = tuple(fix_op(o) for o in stmt.args)
                if stmt.dest is not None:
                    stmt.dest = fix(stmt.dest)
            out.append(stmt)
        block.statements = out
        term = block.terminator
        if isinstance(term, M.SwitchInt):
            term.discr = fix_op(term.discr)
        elif isinstance(term, M.Assert):
            term.cond = fix_op(term.cond)
        elif isinstance(term, M.Call):
            term.args = tuple(fix_op(o) for o in term.args)
            term.destination = fix(term.destination)
    return True
