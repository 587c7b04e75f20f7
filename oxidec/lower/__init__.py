"""AST + typeck results -> MIR, one Body per `#[kernel]` / `#[device]` function.

The shape follows rustc's MIR building: every subexpression gets a temporary, control flow
becomes basic blocks with `SwitchInt` on bools, memory accesses are places with `Deref` /
`Index` projections, and safety checks are explicit `Assert` terminators (bounds checks,
division by zero) so that the passes can fold them and the emitter can keep them off the
hot path. The passes clean up the redundancy this produces.
"""
from __future__ import annotations

from .. import types as T
from ..diagnostics import DiagnosticSink
from ..mir import syntax as M
from ..resolve import ItemTable
from ..typeck import TypeckResults
from .builder import BINOPS, UNIT_CONST, BuilderCore
from .stmt import StmtLowering
from .patterns import PatternLowering
from .expr import ExprLowering
from .places import PlaceLowering
from .control import ControlLowering
from .loops import ForLowering
from .calls import CallLowering
from .macros import MacroLowering
from .lints import lint_levels
from .order import EvalOrder
from .unsafe_uses import UnsafeLowering
from .match_ import MatchLowering
from .options import OptionLowering
from .user_calls import UserCallLowering, holds_closure, returns_inner_ref
from .aggregates import AggregateLowering
from .warp_api import WarpApiLowering
from .async_api import AsyncApiLowering
from .coop_api import CoopApiLowering
from .math_api import MathApiLowering
from .runtime2d_api import Runtime2DLowering
from .barrier_api import BarrierApiLowering
from .coop_ops import CoopOpsLowering
from .coalesced_api import CoalescedLowering
from .overflow_lint import OverflowLint
from .panic_lint import UnconditionalPanicLint
from .contract_entry import ContractEntryLowering
from .num_methods import NumLowering
from .char_methods import CharLowering
from .trait_calls import TraitCallLowering
from .closures import ClosureLowering
from .fn_values import FnValueLowering
from .unions import UnionLowering
from .iterators import IteratorLowering
from .pointers import PointerLowering
from .slices import SliceLowering
from .panics import PanicLowering
from .transmute import TransmuteLowering
from .halves import HalfLowering
from .hopper_api import HopperApiLowering
from .views_api import ViewLowering
from .vectors_api import VectorLowering
from .views_more import ViewMoreLowering
from .uniform_api import UniformLowering


class BodyBuilder(ClosureLowering, IteratorLowering, HalfLowering,
                  BuilderCore, StmtLowering, PatternLowering, MatchLowering, OptionLowering,
                  ExprLowering, PlaceLowering, ControlLowering, ForLowering, CallLowering,
                  MacroLowering, UnsafeLowering, EvalOrder, UserCallLowering, AggregateLowering,
                  OverflowLint, UnconditionalPanicLint, ContractEntryLowering, NumLowering, CharLowering,
                  TraitCallLowering, WarpApiLowering, AsyncApiLowering, CoopApiLowering,
                  PointerLowering,
                  SliceLowering, PanicLowering, TransmuteLowering,
                  HopperApiLowering, FnValueLowering, MathApiLowering, Runtime2DLowering,
                  BarrierApiLowering, CoopOpsLowering, CoalescedLowering, UnionLowering,
                  ViewLowering, ViewMoreLowering, UniformLowering, VectorLowering):
    """Builds one MIR body: locals, blocks, and a cursor at the current block."""


def lower(items: ItemTable, r: TypeckResults, sink: DiagnosticSink) -> M.Program:
    program = M.Program([], source_name=items.source.span.file.name if items.source else "")
    levels = lint_levels(items.source)
    noted: set[str] = set()  # rustc notes a default lint level once per crate
    for name, sig in r.fn_sigs.items():
        if name in r.inline_fns:  # `Index::index`: inlined at each use (trait_calls.py)
            continue
        if any(holds_closure(t) for t in sig.params):
            continue  # inlined at each call, with the closure it gets (lower/closures.py)
        if returns_inner_ref(sig) and name not in r.fn_ids:
            continue  # inlined at each call (user_calls.py); a fn value needs its body

        checked = name not in r.kernels_unchecked
        builder = BodyBuilder(sig, r, sink, checked)
        builder.strings = program.strings
        builder.lint_levels = levels.get(sig.item.name, {})
        builder.lint_noted = noted
        body = builder.build()
        body.lint_levels = levels.get(sig.item.name, {})
        program.bodies.append(body)
    for name, st in r.statics.items():
        program.statics.append(M.StaticDecl(name, st.ty, st.space, st.span, st.init, st.mutable))
    return program


__all__ = ["BINOPS", "UNIT_CONST", "BodyBuilder", "lower"]
