"""Facts about a body that let the emitter pick better instructions; the MIR is not changed.

Two rewrites are planned here:

- `fma.rn` contraction (only when `fmad` is on): in
      _5 = Mul(copy _1, copy _2)      // _5: a temporary used once
      _6 = Add(move _5, copy _3)
  the mul is not emitted and the add becomes `fma.rn.f32 %f6, %f1, %f2, %f3`. The mul
  must be in the same straight-line region (blocks joined by Goto/Assert edges into
  single-predecessor blocks), and its operands unchanged until the add (no assignment
  to a local they read; no store or effect between when they load from memory).
  `x - a*b` and `a*b - x` contract too, with the negation on the other operand.
- widened 32-bit indices: a usize local assigned once by `Cast(u32 -> usize)` of a value
  that never changes after it is computed (a parameter, a constant, or a local assigned
  once outside every loop) is used as `mul.wide.u32` in address arithmetic, which
  ptxas turns into one IMAD.WIDE instead of a 64-bit multiply.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..mir import syntax as mir
from ..types import FloatTy, IntTy
from .regalloc import place_ty, rvalue_operands, through_pointer


@dataclass(frozen=True)
class FmaShape:
    a: mir.Operand  # the product's factors
    b: mir.Operand
    addend: mir.Operand
    negate_product: bool  # x - a*b
    negate_addend: bool  # a*b - x


@dataclass
class FusionPlan:
    skipped: set[tuple[int, int]] = field(default_factory=set)  # (block, statement) muls
    fma: dict[tuple[int, int], FmaShape] = field(default_factory=dict)
    widened: dict[int, mir.Operand] = field(default_factory=dict)  # usize local -> u32 operand


def plan_fusion(body: mir.Body, memory_locals, fmad: bool) -> FusionPlan:
    plan = FusionPlan()
    mentions, defs = _mentions(body), _defs(body)
    if fmad:
        for region in straight_line_regions(body):
            _plan_region_fma(body, region, mentions, defs, memory_locals, plan)
    _plan_widened(body, defs, memory_locals, plan)
    return plan


# ---------------------------------------------------------------------------
# fma contraction

def _plan_region_fma(body, region, mentions, defs, memory_locals, plan) -> None:
    """Contract within one straight-line region: a list of (block, index, statement)."""
    products: dict[int, int] = {}  # temp local -> position in `region` of its mul
    for pos, (b, s, stmt) in enumerate(region):
        if not isinstance(stmt, mir.Assign):
            continue
        rv = stmt.rvalue
        if isinstance(rv, mir.BinaryOp) and rv.op in ("add", "sub") and _is_float(body, rv.lhs):
            shape = _fma_shape(body, region, pos, rv, products, memory_locals)
            if shape is not None:
                plan.fma[(b, s)] = shape[0]
                mb, ms, _ = region[shape[1]]
                plan.skipped.add((mb, ms))
        local = stmt.place.local
        if (not stmt.place.projection and isinstance(rv, mir.BinaryOp) and rv.op == "mul"
                and _is_float(body, rv.lhs) and body.locals[local].name is None
                and mentions[local] == 1 and defs[local] == 1 and local not in memory_locals):
            products[local] = pos


def straight_line_regions(body) -> list[list[tuple[int, int, object]]]:
    """Blocks chained by Goto/Assert edges into a block with no other predecessor, as
    one statement list: a bounds check between `a * x[i]` and `+ y[i]` does not stop
    the contraction (the mul has no effect, so doing it after the check is the same)."""
    preds = [0] * len(body.blocks)
    for block in body.blocks:
        for t in successors(block.terminator):
            preds[t] += 1
    chained = set()
    for block in body.blocks:
        term = block.terminator
        if isinstance(term, (mir.Goto, mir.Assert)) and preds[term.target] == 1:
            chained.add(term.target)
    regions = []
    for head in range(len(body.blocks)):
        if head in chained and head != 0:
            continue
        region, b, seen = [], head, set()
        while b not in seen:
            seen.add(b)
            block = body.blocks[b]
            region += [(b, s, stmt) for s, stmt in enumerate(block.statements)]
            term = block.terminator
            if not (isinstance(term, (mir.Goto, mir.Assert)) and term.target in chained
                    and term.target != 0):
                break
            b = term.target
        regions.append(region)
    return regions


def _fma_shape(body, region, pos, rv, products, memory_locals):
    """The contraction of the add/sub at `pos`, and the position of its mul."""
    for side, op in ((0, rv.lhs), (1, rv.rhs)):
        if not (isinstance(op, (mir.Copy, mir.Move)) and not op.place.projection):
            continue
        m = products.get(op.place.local)
        if m is None or not _unchanged_between(body, region, m, pos, memory_locals):
            continue
        mul = region[m][2].rvalue
        other = rv.rhs if side == 0 else rv.lhs
        if place_operand_ty(body, other) != place_operand_ty(body, mul.lhs):
            continue
        negate_product = rv.op == "sub" and side == 1
        negate_addend = rv.op == "sub" and side == 0
        return FmaShape(mul.lhs, mul.rhs, other, negate_product, negate_addend), m
    return None


def _unchanged_between(body, region, m: int, pos: int, memory_locals) -> bool:
    """Whether the mul at m reads the same values at pos: no statement between assigns
    a local it reads, and none writes memory when it loads from memory."""
    operands = rvalue_operands(region[m][2].rvalue)
    read = {loc for op in operands for loc in _operand_locals(op)}
    loads = any(not isinstance(op, mir.Constant) and
                (through_pointer(body, op.place) or op.place.local in memory_locals)
                for op in operands)
    for _, _, stmt in region[m + 1:pos]:
        if isinstance(stmt, mir.Effect) and loads:
            return False
        if not isinstance(stmt, mir.Assign):
            continue
        if stmt.place.local in read:
            return False
        if loads and (through_pointer(body, stmt.place) or stmt.place.local in memory_locals):
            return False
    return True


def _is_float(body, op) -> bool:
    return isinstance(place_operand_ty(body, op), FloatTy)


def place_operand_ty(body, op: mir.Operand):
    return op.ty if isinstance(op, mir.Constant) else place_ty(body, op.place)


# ---------------------------------------------------------------------------
# widened 32-bit indices

def _plan_widened(body, defs, memory_locals, plan) -> None:
    once = _blocks_outside_loops(body)
    def_block: dict[int, int] = {}
    def_cast: dict[int, mir.Cast] = {}
    for b, block in enumerate(body.blocks):
        for stmt in block.statements:
            if isinstance(stmt, mir.Assign) and not stmt.place.projection:
                def_block.setdefault(stmt.place.local, b)
                if isinstance(stmt.rvalue, mir.Cast):
                    def_cast[stmt.place.local] = stmt.rvalue
    args = set(body.args())
    for w, cast in def_cast.items():
        ty = body.locals[w].ty
        if defs[w] != 1 or w in args or w in memory_locals:
            continue
        if not (isinstance(ty, IntTy) and ty.bits == 64 and isinstance(cast.ty, IntTy)):
            continue
        src = cast.operand
        src_ty = place_operand_ty(body, src)
        if not (isinstance(src_ty, IntTy) and src_ty.bits <= 32):
            continue
        if isinstance(src, mir.Constant):
            plan.widened[w] = src
            continue
        s = src.place.local
        if src.place.projection or s in memory_locals:
            continue
        if (s in args and defs[s] == 0) or (defs[s] == 1 and def_block.get(s) in once):
            plan.widened[w] = src


def _blocks_outside_loops(body) -> set[int]:
    succs = [successors(block.terminator) for block in body.blocks]
    outside = set()
    for b in range(len(body.blocks)):
        seen, stack = set(), list(succs[b])
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack.extend(succs[n])
        if b not in seen:
            outside.add(b)
    return outside


def successors(term) -> tuple[int, ...]:
    if isinstance(term, mir.Goto):
        return (term.target,)
    if isinstance(term, mir.SwitchInt):
        return tuple(term.targets) + (term.otherwise,)
    if isinstance(term, (mir.Call, mir.Assert)):
        return (term.target,)
    return ()


# ---------------------------------------------------------------------------
# use and def counts

def _mentions(body) -> Counter:
    """How often each local is read or named anywhere except as a whole-local def."""
    count: Counter = Counter()
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, mir.Assign):
                _count_place(body, stmt.place, count, as_def=True)
                rv = stmt.rvalue
                if isinstance(rv, (mir.Ref, mir.Len)):
                    _count_place(body, rv.place, count)
                for op in rvalue_operands(rv):
                    count.update(_operand_locals(op))
            elif isinstance(stmt, mir.Effect):
                for op in stmt.args:
                    count.update(_operand_locals(op))
        term = block.terminator
        if isinstance(term, mir.Call):
            _count_place(body, term.destination, count, as_def=True)
            for op in term.args:
                count.update(_operand_locals(op))
        elif isinstance(term, mir.SwitchInt):
            count.update(_operand_locals(term.discr))
        elif isinstance(term, mir.Assert):
            count.update(_operand_locals(term.cond))
    return count


def _count_place(body, place, count, as_def=False) -> None:
    if not (as_def and not through_pointer(body, place)):
        count[place.local] += 1
    for p in place.projection:
        if isinstance(p, mir.Index):
            count[p.local] += 1


def _operand_locals(op) -> list[int]:
    if isinstance(op, mir.Constant):
        return []
    return [op.place.local] + [p.local for p in op.place.projection if isinstance(p, mir.Index)]


def _defs(body) -> Counter:
    """How often each local is assigned (whole or in part) by a statement or a call."""
    count: Counter = Counter()
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, mir.Assign) and not through_pointer(body, stmt.place):
                count[stmt.place.local] += 1
        if isinstance(block.terminator, mir.Call):
            if not through_pointer(body, block.terminator.destination):
                count[block.terminator.destination.local] += 1
    return count

