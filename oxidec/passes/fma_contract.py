"""fma contraction (nvcc's --fmad=true, on by default): a float multiply whose only use is an
add or subtract becomes one fused multiply-add, rounded once.

    _5 = Mul(copy _1, copy _2)        // _5: a temporary used once
    _6 = Add(move _5, copy _3)
becomes
    _6 = @fma(copy _1, copy _2, copy _3)

`x - a*b` becomes `fma(-a, b, x)` and `a*b - x` becomes `fma(a, b, -x)` (negation is exact).
This runs on MIR, not in the emitter, so that the CPU simulator executes exactly the
operations the GPU does and the two agree bit for bit.

The mul and the add may sit in different blocks of one straight-line region (blocks chained
by Goto/Assert into a block with no other predecessor): the bounds check between `a * x[i]`
and `+ y[i]` does not stop it, since doing a pure mul later is the same. The mul's operands
must be unchanged until the add: no assignment to a local they read, and, when they load
from memory, no store or side effect in between.
"""
from __future__ import annotations

from collections import Counter

from .. import types as T
from ..mir import syntax as M
from ..mir.typeof import operand_ty
from ..mir.visit import defs, read_counts
from ..mir.cfg import predecessor_counts


def fma_contract(body: M.Body) -> bool:
    uses, defs = _use_counts(body)
    rewrites: dict[tuple[int, int], list] = {}  # (block, stmt) -> replacement statements
    for region in straight_line_regions(body):
        products: dict[int, int] = {}  # temp local -> position of its mul in the region
        for pos, (b, s, stmt) in enumerate(region):
            if not isinstance(stmt, M.Assign):
                continue
            rv = stmt.rvalue
            if isinstance(rv, M.BinaryOp) and rv.op in ("add", "sub") and _is_float(body, rv.lhs):
                fused = _contract(body, region, pos, stmt, products)
                if fused is not None:
                    mul_pos, replacement = fused
                    mb, ms, _ = region[mul_pos]
                    rewrites[(mb, ms)] = []
                    rewrites[(b, s)] = replacement
                    products = {k: v for k, v in products.items() if v != mul_pos}
            local = stmt.place.local
            if (not stmt.place.projection and isinstance(rv, M.BinaryOp) and rv.op == "mul"
                    and _is_float(body, rv.lhs) and body.locals[local].name is None
                    and uses[local] == 1 and defs[local] == 1):
                products[local] = pos
    for (b, s), replacement in sorted(rewrites.items(), reverse=True):
        body.blocks[b].statements[s:s + 1] = replacement
    return bool(rewrites)


def _contract(body, region, pos, stmt, products):
    rv = stmt.rvalue
    for side, op in ((0, rv.lhs), (1, rv.rhs)):
        if not (isinstance(op, (M.Copy, M.Move)) and not op.place.projection):
            continue
        m = products.get(op.place.local)
        if m is None or not _unchanged_between(body, region, m, pos):
            continue
        mul = region[m][2].rvalue
        addend = rv.rhs if side == 0 else rv.lhs
        ty = operand_ty(body, mul.lhs)
        if operand_ty(body, addend) != ty:
            continue
        out, a = [], mul.lhs
        if rv.op == "sub" and side == 1:  # x - a*b = fma(-a, b, x)
            a = _negated(body, a, ty, stmt.span, out)
        if rv.op == "sub" and side == 0:  # a*b - x = fma(a, b, -x)
            addend = _negated(body, addend, ty, stmt.span, out)
        out.append(M.Assign(stmt.place, M.Intrinsic("fma", (a, mul.rhs, addend)), stmt.span))
        return m, out
    return None


def _negated(body, op, ty, span, out) -> M.Operand:
    body.locals.append(M.LocalDecl(ty, None, True, span))
    t = len(body.locals) - 1
    out.append(M.Assign(M.Place(t), M.UnaryOp("neg", op), span))
    return M.Copy(M.Place(t))


def _is_float(body, op) -> bool:
    return isinstance(operand_ty(body, op), T.FloatTy)


def _reads_memory(body, op) -> bool:
    return not isinstance(op, M.Constant) and _through_pointer(body, op.place)


def _through_pointer(body, place: M.Place) -> bool:
    ty = body.locals[place.local].ty
    fat = isinstance(ty, T.DisjointSliceTy) or (isinstance(ty, T.RefTy) and
                                                isinstance(ty.inner, T.SliceTy))
    return any(isinstance(p, M.Deref) for p in place.projection) or (fat and place.projection)


def _operand_locals(op) -> list[int]:
    if isinstance(op, M.Constant):
        return []
    return [op.place.local] + [p.local for p in op.place.projection if isinstance(p, M.Index)]


def _unchanged_between(body, region, m: int, pos: int) -> bool:
    mul = region[m][2].rvalue
    operands = (mul.lhs, mul.rhs)
    read = {loc for op in operands for loc in _operand_locals(op)}
    loads = any(_reads_memory(body, op) for op in operands)
    for _, _, stmt in region[m + 1:pos]:
        if isinstance(stmt, M.Nop):
            continue
        if not isinstance(stmt, M.Assign):
            if loads:
                return False  # an effect or atomic may write what the mul reads
            if isinstance(stmt, M.AtomicOp) and stmt.dest is not None \
                    and stmt.dest.local in read:
                return False
            continue
        if stmt.place.local in read:
            return False
        if loads and _through_pointer(body, stmt.place):
            return False
    return True


def straight_line_regions(body: M.Body) -> list[list[tuple[int, int, object]]]:
    """Blocks chained by Goto/Assert edges into a block with no other predecessor, each
    chain flattened into one list of (block, index, statement)."""
    preds = predecessor_counts(body)
    chained = {block.terminator.target for block in body.blocks
               if isinstance(block.terminator, (M.Goto, M.Assert))
               and preds[block.terminator.target] == 1 and block.terminator.target != 0}
    regions = []
    for head in range(len(body.blocks)):
        if head in chained:
            continue
        region, b, seen = [], head, set()
        while b not in seen:
            seen.add(b)
            block = body.blocks[b]
            region += [(b, s, stmt) for s, stmt in enumerate(block.statements)]
            term = block.terminator
            if not (isinstance(term, (M.Goto, M.Assert)) and term.target in chained):
                break
            b = term.target
        regions.append(region)
    return regions


def _use_counts(body: M.Body) -> tuple[Counter, Counter]:
    """(reads, definitions) per local, from the shared visitor."""
    return read_counts(body), Counter({local: len(ds) for local, ds in defs(body).items()})
