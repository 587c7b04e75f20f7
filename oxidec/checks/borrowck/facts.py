"""The binding scopes the checks need, read from the MIR's storage statements.

Lowering marks where each binding starts (`StorageLive`) and where the block that declared
it ends (`StorageDead`), and gives operands the span of the expression they were read from.
The checks take the storage statements out of the body (`take_storage`) before anything
else sees it: the passes, the emitter and the simulator keep locals in registers and need
none. Positions are (block, statement index) of the body without them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...mir import syntax as M
from ...span import Span


@dataclass
class BindingScopes:
    # A binding (re)starts here: `let x`, a `for`/`if let` pattern. The local is
    # uninitialised just before statement `index` (rustc's StorageLive).
    live: list[tuple[int, int, int]] = field(default_factory=list)  # (block, index, local)
    # The block that declared the local ends here (StorageDead); span: its closing brace.
    dead: list[tuple[int, int, int, Span]] = field(default_factory=list)

    @staticmethod
    def span_of(op, default: Span) -> Span:
        """Where the source read the operand's value, else `default` (the statement's)."""
        span = getattr(op, "span", None)
        return span if span is not None else default


def take_storage(body: M.Body) -> BindingScopes:
    """Remove the body's StorageLive/StorageDead statements; return where they were."""
    scopes = BindingScopes()
    for b, block in enumerate(body.blocks):
        kept = []
        for stmt in block.statements:
            if isinstance(stmt, M.StorageLive):
                scopes.live.append((b, len(kept), stmt.local))
            elif isinstance(stmt, M.StorageDead):
                scopes.dead.append((b, len(kept), stmt.local, stmt.span))
            else:
                kept.append(stmt)
        block.statements[:] = kept
    return scopes
