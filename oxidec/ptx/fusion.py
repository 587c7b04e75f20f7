"""Facts about a body that let the emitter pick better instructions; the MIR is not changed.

Two rewrites are planned here:

- `fma.rn` contraction (only when `fmad` is on): in
      _5 = Mul(copy _1, copy _2)      // _5: a temporary used once
      _6 = Add(move _5, copy _3)
  the mul is not emitted and the add becomes `fma.rn.f32 %f6, %f1, %f2, %f3`. The mul
  must be in the same block, its operands unchanged until the add, and not loads.
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
from .regalloc import place_ty, rvalue_operands


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
        for b, block in enumerate(body.blocks):
            _plan_block_fma(body, b, block, mentions, defs, memory_locals, plan)
    _plan_widened(body, defs, memory_locals, plan)
    return plan


# ---------------------------------------------------------------------------
# fma contraction

def _plan_block_fma(body, b, block, mentions, defs, memory_locals, plan) -> None:
    products: dict[int, int] = {}  # temp local -> index of the mul defining it
    for s, stmt in enumerate(block.statements):
        if not isinstance(stmt, mir.Assign):
            continue
        rv = stmt.rvalue
        if isinstance(rv, mir.BinaryOp) and rv.op in ("add", "sub") and _is_float(body, rv.lhs):
            shape = _fma_shape(body, block, s, rv, products)
            if shape is not None:
                plan.fma[(b, s)] = shape[0]
                plan.skipped.add((b, shape[1]))
        local = stmt.place.local
        if (not stmt.place.projection and isinstance(rv, mir.BinaryOp) and rv.op == "mul"
                and _is_float(body, rv.lhs) and body.locals[local].name is None
                and mentions[local] == 1 and defs[local] == 1 and local not in memory_locals
                and all(_register_operand(op) for op in (rv.lhs, rv.rhs))):
            products[local] = s


def _fma_shape(body, block, s, rv, products):
    """The contraction of the add/sub at statement s, and the index of its mul."""
    for side, op in ((0, rv.lhs), (1, rv.rhs)):
        if not (isinstance(op, (mir.Copy, mir.Move)) and not op.place.projection):
            continue
        m = products.get(op.place.local)
        if m is None or not _unchanged_between(block, m, s):
            continue
        mul = block.statements[m].rvalue
        other = rv.rhs if side == 0 else rv.lhs
        if place_operand_ty(body, other) != place_operand_ty(body, mul.lhs):
            continue
        negate_product = rv.op == "sub" and side == 1
        negate_addend = rv.op == "sub" and side == 0
        return FmaShape(mul.lhs, mul.rhs, other, negate_product, negate_addend), m
    return None


def _unchanged_between(block, m: int, s: int) -> bool:
    """No statement strictly between m and s assigns a local the mul at m reads."""
    read = {loc for op in rvalue_operands(block.statements[m].rvalue)
            for loc in _operand_locals(op)}
    for stmt in block.statements[m + 1:s]:
        if isinstance(stmt, mir.Assign) and stmt.place.local in read:
            return False
    return True


def _register_operand(op: mir.Operand) -> bool:
    """Constants and places that are not loads from memory."""
    if isinstance(op, mir.Constant):
        return True
    return not any(isinstance(p, mir.Deref) for p in op.place.projection)


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
                _count_place(stmt.place, count, as_def=True)
                rv = stmt.rvalue
                if isinstance(rv, (mir.Ref, mir.Len)):
                    _count_place(rv.place, count)
                for op in rvalue_operands(rv):
                    count.update(_operand_locals(op))
            elif isinstance(stmt, mir.Effect):
                for op in stmt.args:
                    count.update(_operand_locals(op))
        term = block.terminator
        if isinstance(term, mir.Call):
            _count_place(term.destination, count, as_def=True)
            for op in term.args:
                count.update(_operand_locals(op))
        elif isinstance(term, mir.SwitchInt):
            count.update(_operand_locals(term.discr))
        elif isinstance(term, mir.Assert):
            count.update(_operand_locals(term.cond))
    return count


def _count_place(place, count, as_def=False) -> None:
    if not (as_def and not any(isinstance(p, mir.Deref) for p in place.projection)):
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
            if isinstance(stmt, mir.Assign) and not _through_deref(stmt.place):
                count[stmt.place.local] += 1
        if isinstance(block.terminator, mir.Call):
            if not _through_deref(block.terminator.destination):
                count[block.terminator.destination.local] += 1
    return count


def _through_deref(place) -> bool:
    return any(isinstance(p, mir.Deref) for p in place.projection)
