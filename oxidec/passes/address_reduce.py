"""Strength reduction of element addresses in loops: `address_reduce(body)`.

An element of a slice indexed by an affine function of a loop's induction variable
(affine.py), `(*S)[i]` with `i = a * k + b` and the slice `S` invariant, is reached
through a new pointer `p = &(*S)[a * k0 + b]` set in the preheader and advanced by
`a * step` elements right after each update of `k` (`ptr_add`), so it always holds the
address of `(*S)[a * k + b]`:

    bb1: { ...; goto -> bb2; }                        bb1: { ...; _9 = Add(copy _5, copy _3);
    bb3: {                                                   _10 = &(*_1)[_9]; goto -> bb2; }
        _6 = Add(copy _5, copy _3);                   bb3: {
        _7 = copy (*_1)[_6];                  ->          _6 = Add(copy _5, copy _3);
        ...                                               _7 = copy (*_10);
        _3 = Add(copy _3, const 1_usize);                 ...
        goto -> bb2;                                      _3 = Add(copy _3, const 1_usize);
    }                                                     _10 = @ptr_add(copy _10, const 1_usize);
                                                          goto -> bb2;
                                                      }

The emitter computed `base + i * size` for every access (two 64-bit instructions per
address); now each pointer costs one 64-bit add per iteration, and once ptxas unrolls a
rotated loop (loop_rotate.py) the accesses of a unit-stride pointer become immediate
offsets of one register. The pointer keeps the slice's state space (a `&[T]` kernel
parameter's `ld.global.nc`, spaces.py follows `Ref` and `ptr_add`).

Only the address changes: the bounds check of `(*S)[i]` is a separate `assert` on `i`,
which stays (or goes, by bounds_hoist.py's proof) as before, and `p` is dereferenced only
where `(*S)[i]` was, with the same address, so no access moves. The pointer may point
past the slice after the last iteration, where nothing dereferences it (`Ref` and
`ptr_add` compute addresses, they never load). The index `i` is left for the check and for
`dead_code`. An index `k + b` of an induction variable with a run-time step (a grid-stride
loop) keeps its index: the loop needs `k` for its test anyway, and without unrolling a
second 64-bit add per iteration buys nothing (measured: 9 -> 12 SASS instructions in
samples/reduce.rs). Arithmetic wraps: `&S[a*(k+step)+b]` is `&S[a*k+b] + a*step*size` modulo
2^64, as the emitter computes addresses.
"""
from __future__ import annotations

from ..mir.syntax import (
    Assign, Body, Constant, Copy, Deref, Index, Intrinsic, Place, Ref,
)
from ..mir.typeof import place_ty
from ..types import USIZE, DisjointSliceTy, PtrTy, RefTy, SliceTy
from .affine import ONE, ZERO, AffineAnalysis, Builder, inv_op
from .loops import Site, ensure_preheader, per_round, rewrite_each_iv
from ..mir.visit import rewrite_statement, rewrite_terminator


def address_reduce(body: Body) -> bool:
    return rewrite_each_iv(body, _reduce_iv)


def _reduce_iv(body: Body, loop, facts, iv, doms) -> bool:
    if body.locals[iv.local].ty != USIZE:
        return False
    analysis = AffineAnalysis(body, loop, facts, iv, doms)
    uses = _element_uses(body, loop, analysis)
    if not uses:
        return False
    _rewrite(body, loop, iv, analysis, uses)
    return True


def _slice_local(body: Body, place: Place) -> bool:
    ty = body.locals[place.local].ty
    return isinstance(ty, DisjointSliceTy) or (isinstance(ty, RefTy)
                                               and isinstance(ty.inner, SliceTy))


def _element_uses(body: Body, loop, analysis: AffineAnalysis):
    """{(block, index): {place: key}} of the element places to rewrite, key =
    (slice local, a, b, phase)."""
    facts = analysis.facts
    found: dict[tuple[int, int], dict[Place, tuple]] = {}
    blocks = loop.blocks
    for b, i, places in per_round(analysis.doms, "element_places", _element_places, body):
        if b not in blocks:
            continue
        site = Site(b, i)
        for place in places:
            if not facts.invariant_local(place.local):
                continue
            phase = analysis.phase(site)
            analysis.phases = {phase}
            aff = analysis.of_operand(Copy(Place(place.projection[1].local)), site, 0)
            if aff is None or aff.a == ZERO or len(analysis.phases) != 1 \
                    or "mixed" in analysis.phases:
                continue
            if aff.a == ONE and not isinstance(analysis.iv.step, Constant):
                continue  # `x[i]` in `i += stride`: i is needed anyway (see above)
            found.setdefault((b, i), {})[place] = (place.local, aff.a, aff.b, phase)
    return found


def _element_places(body: Body) -> list[tuple[int, int, list[Place]]]:
    """[(block, index, places)]: the element places of slices (`(*s)[i]..`, s a slice) at
    each statement and terminator that has one, in block order: one walk of the body per
    analysis round instead of one of each loop's blocks per induction variable."""
    out = []
    places: list[Place] = []

    def record(place: Place, is_def: bool) -> Place:
        proj = place.projection
        if len(proj) >= 2 and type(proj[0]) is Deref and type(proj[1]) is Index \
                and _slice_local(body, place):
            places.append(place)
        return place

    for b, block in enumerate(body.blocks):
        statements = block.statements
        for i in range(len(statements) + 1):
            if i < len(statements):
                rewrite_statement(statements[i], place_fn=record)
            else:
                rewrite_terminator(block.terminator, place_fn=record)
            if places:
                out.append((b, i, places))
                places = []
    return out


def _rewrite(body: Body, loop, iv, analysis: AffineAnalysis, uses) -> None:
    pre = ensure_preheader(body, loop)
    span = body.blocks[iv.update.block].statements[iv.update.index].span
    build = Builder(body, span)
    k = Copy(Place(iv.local))
    pointers: dict[tuple, int] = {}
    updates = []
    step = ("k", iv.step.value) if isinstance(iv.step, Constant) else ("v", iv.step)
    for per_site in uses.values():
        for place, key in per_site.items():
            if key in pointers:
                continue
            s, a, b, _ = key
            slice_ty = body.locals[s].ty
            mutable = isinstance(slice_ty, DisjointSliceTy) or slice_ty.mutable
            elem = place_ty(body, Place(s, place.projection[:2]))
            start = k if a == ONE else build.binary("mul", build.inv(a, USIZE), k, USIZE)
            if b != ZERO:
                start = build.binary("add", start, build.inv(b, USIZE), USIZE)
            p = build.temp(PtrTy(elem, mutable))
            build.stmts.append(Assign(Place(p), Ref(Place(s, (Deref(), Index(start.place.local))),
                                                    mutable), span))
            stride = build.inv(inv_op("mul", a, step, USIZE), USIZE)
            updates.append(Assign(Place(p), Intrinsic("ptr_add", (Copy(Place(p)), stride)), span))
            pointers[key] = p
    for (b, i), per_site in uses.items():
        def replace(place: Place, is_def: bool, per_site=per_site) -> Place:
            key = per_site.get(place)
            if key is None:
                return place
            return Place(pointers[key], (Deref(),) + place.projection[2:])

        block = body.blocks[b]
        if i < len(block.statements):
            rewrite_statement(block.statements[i], place_fn=replace)
        else:
            rewrite_terminator(block.terminator, place_fn=replace)
    body.blocks[pre].statements.extend(build.stmts)
    u = iv.update
    stmts = body.blocks[u.block].statements
    body.blocks[u.block].statements = stmts[:u.index + 1] + updates + stmts[u.index + 1:]


__all__ = ["address_reduce"]
