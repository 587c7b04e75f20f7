"""Facts about a body that let the emitter pick better instructions; the MIR is not changed.

Widened 32-bit indices: a usize local assigned once by `Cast(u32 -> usize)` of a value that
never changes after it is computed (a parameter, a constant, or a local assigned once
outside every loop) is used as `mul.wide.u32` in address arithmetic, which ptxas turns
into one IMAD.WIDE instead of a 64-bit multiply. (fma contraction is a MIR pass,
passes/fma_contract.py, so that the simulator sees it too.)
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..mir import syntax as mir
from ..mir.cfg import blocks_on_cycles
from ..types import IntTy
from ..mir.typeof import place_ty
from .regalloc import through_pointer


@dataclass
class FusionPlan:
    widened: dict[int, mir.Operand] = field(default_factory=dict)  # usize local -> u32 operand


def plan_fusion(body: mir.Body, memory_locals) -> FusionPlan:
    plan = FusionPlan()
    defs = _defs(body)
    _plan_widened(body, defs, memory_locals, plan)
    return plan


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
    return set(range(len(body.blocks))) - blocks_on_cycles(body)


# ---------------------------------------------------------------------------
# use and def counts

def _defs(body) -> Counter:
    """How often each local is assigned (whole or in part) by a statement or a call."""
    count: Counter = Counter()
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, mir.Assign) and not through_pointer(body, stmt.place):
                count[stmt.place.local] += 1
            elif isinstance(stmt, mir.AtomicOp) and stmt.dest is not None \
                    and not through_pointer(body, stmt.dest):
                count[stmt.dest.local] += 1
        if isinstance(block.terminator, mir.Call):
            if not through_pointer(body, block.terminator.destination):
                count[block.terminator.destination.local] += 1
    return count

