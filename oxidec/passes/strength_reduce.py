"""Strength reduction of induction-variable arithmetic: `strength_reduce(body)`.

In a loop with a basic induction variable `k` (its only write in the loop is
`k = Add(copy k, step)`, step invariant; loops.py), a local computed as `a * k + b` with
a multiplication in it (affine.py; `a` not 1, `a` and `b` invariant) becomes a new
induction variable `s`, kept equal to `a * k + b` by adding `a * step` right after each
update of `k`:

    bb1: { ...; goto -> bb2; }                       bb1: { ...; _9 = Mul(copy _3, copy _4);
    bb2: { _5 = Lt(copy _3, copy _1); ... }                 _10 = Add(copy _9, copy _2);
    bb3: {                                                  goto -> bb2; }
        _6 = Mul(copy _3, copy _4);                  bb3: {
        _7 = Add(copy _6, copy _2);          ->          _7 = copy _10;
        ... (*_8)[_7] ...                                ... (*_8)[_7] ...
        _3 = Add(copy _3, const 1_usize);                _3 = Add(copy _3, const 1_usize);
        goto -> bb2;                                     _10 = Add(copy _10, copy _4);
    }                                                    goto -> bb2;
                                                     }

(`_6` is then unused, and `dead_code` removes it.) Integer arithmetic wraps, so
`a * (k + step) + b == (a * k + b) + a * step` modulo 2^bits for every value: the new
variable is exact, whatever the trip count, and needs no overflow reasoning. The
preheader computes the start value from `k`'s value on entry. Every read of `k` in the
replaced expression must see the same value of `k` (all before its update in the
iteration, or all after), so that `s`, updated right after `k`, matches it.
"""
from __future__ import annotations

from ..mir.syntax import Assign, BinaryOp, Body, Constant, Copy, Place, Use
from .affine import ONE, ZERO, AffineAnalysis, Builder, inv_op
from .loops import Site, ensure_preheader, per_round, rewrite_each_iv, sole_write_loops
from ..mir.visit import statement_reads, terminator_reads


def strength_reduce(body: Body) -> bool:
    return rewrite_each_iv(body, _reduce_iv)


def _reduce_iv(body: Body, loop, facts, iv, doms) -> bool:
    analysis = AffineAnalysis(body, loop, facts, iv, doms)
    roots = _roots(body, loop, analysis)
    if not roots:
        return False
    _rewrite(body, loop, iv, analysis, roots)
    return True


def _roots(body: Body, loop, analysis: AffineAnalysis):
    """[(site, affine)] of the affine locals with a multiplication that something other
    than another such local reads."""
    facts = analysis.facts
    found = {}
    ty = analysis.ty
    for b, i, stmt in _candidates(body, loop, facts, analysis.doms):
        local = stmt.place.local
        if body.locals[local].ty != ty or local in facts.taken \
                or len(facts.inside_sites(local)) != 1:
            continue
        analysis.phases = {analysis.phase(Site(b, i))}  # where `s` replaces it
        aff = analysis.of_rvalue(stmt.rvalue, Site(b, i), 0)
        if aff is None or aff.a in (ZERO, ONE) or len(analysis.phases) != 1 \
                or "mixed" in analysis.phases:
            continue
        found[local] = (Site(b, i), aff)
    if not found:
        return []
    # locals read by statements other than the definitions of other found locals
    read_elsewhere = set()
    for b, block in enumerate(body.blocks):
        for i, stmt in enumerate(block.statements):
            if isinstance(stmt, Assign) and not stmt.place.projection \
                    and stmt.place.local in found and found[stmt.place.local][0] == Site(b, i):
                continue
            read_elsewhere.update(statement_reads(stmt))
        read_elsewhere.update(terminator_reads(block.terminator))
    return [(site, aff) for local, (site, aff) in found.items() if local in read_elsewhere]


# the operations AffineAnalysis.of_rvalue follows (any other binary operation is not affine)
AFFINE_OPS = frozenset(("add", "sub", "mul", "shl"))


def _candidates(body: Body, loop, facts, doms) -> list:
    """[(block, index, statement)]: the statements `_n = op(a, b)` (op affine) inside the
    loop that write a whole local other than an argument, whose address is not taken and
    which is written nowhere else in the loop; in block order.

    For a nest of N loops, listing each loop's statements (the inner loops' too) and
    asking of each whether its local is written once in the loop was quadratic in N. The
    loops in which a statement is its local's only write are the innermost loop around it
    and the enclosing ones up to (not including) the first that holds another write of the
    local: a loop's blocks are an interval of the loop forest's numbering (mir/cfg.py), so
    with the local's other writes' numbers that is one walk up the forest per statement,
    as long as the statement is a candidate. Made once per analysis round."""
    forest = getattr(loop.blocks, "forest", None)
    if forest is None:
        blocks = loop.blocks
        return [e for e in _binary_assigns(body) if e[0] in blocks
                and e[2].place.local not in facts.taken
                and len(facts.inside_sites(e[2].place.local)) == 1]
    by_loop = per_round(doms, "strength_candidates",
                        lambda b: _candidates_by_loop(b, forest, facts.defs, facts.taken), body)
    if by_loop[0] is not facts.defs or by_loop[1] is not facts.taken:  # not this round's
        by_loop = (facts.defs, facts.taken,
                   _candidates_by_loop(body, forest, facts.defs, facts.taken)[2])
    return by_loop[2].get(loop.lo, [])


def _candidates_by_loop(body: Body, forest, defs, taken):
    """(defs, taken, {loop number: its candidates, in block order})."""
    out: dict[int, list] = {}
    for b, i, stmt in _binary_assigns(body):
        local = stmt.place.local
        if local in taken:
            continue
        for loop in sole_write_loops(forest, defs, local, Site(b, i)):
            out.setdefault(loop.lo, []).append((b, i, stmt))
    return defs, taken, out


def _binary_assigns(body: Body) -> list:
    """[(block, index, statement)]: every `_n = op(a, b)` with an affine op that writes a
    whole local other than an argument, in block order."""
    return [(b, i, stmt) for b, block in enumerate(body.blocks)
            for i, stmt in enumerate(block.statements)
            if type(stmt) is Assign and not stmt.place.projection
            and stmt.place.local > body.arg_count and type(stmt.rvalue) is BinaryOp
            and stmt.rvalue.op in AFFINE_OPS]


def _rewrite(body: Body, loop, iv, analysis: AffineAnalysis, roots) -> None:
    ty = analysis.ty
    pre = ensure_preheader(body, loop)
    span = body.blocks[iv.update.block].statements[iv.update.index].span
    build = Builder(body, span)
    k = Copy(Place(iv.local))
    variables = {}  # (a, b) -> the new induction variable
    updates = []
    for site, aff in roots:
        key = (aff.a, aff.b)
        if key not in variables:
            s = build.temp(ty)
            a = build.inv(aff.a, ty)
            start = build.binary("mul", a, k, ty)
            if aff.b != ZERO:
                start = build.binary("add", start, build.inv(aff.b, ty), ty)
            build.stmts.append(Assign(Place(s), Use(start), span))
            step_inv = ("k", iv.step.value) if isinstance(iv.step, Constant) else ("v", iv.step)
            step = build.inv(inv_op("mul", aff.a, step_inv, ty), ty)
            variables[key] = s
            updates.append(Assign(Place(s), BinaryOp("add", Copy(Place(s)), step), span))
        stmt = body.blocks[site.block].statements[site.index]
        stmt.rvalue = Use(Copy(Place(variables[key])))
    body.blocks[pre].statements.extend(build.stmts)
    u = iv.update
    stmts = body.blocks[u.block].statements
    body.blocks[u.block].statements = stmts[:u.index + 1] + updates + stmts[u.index + 1:]


__all__ = ["strength_reduce"]
