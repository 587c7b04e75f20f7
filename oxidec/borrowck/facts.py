"""What lowering knows about a body and MIR forgets, recorded for the checker.

MIR has no `StorageLive`/`StorageDead` statements (the emitter keeps locals in registers
and needs none), and operands carry no spans of their own. Lowering notes both here, in
`body.attrs[FACTS_ATTR]`; the checker takes them out again (`take_facts`) before anything
else sees the body, so the pretty-printer, the passes and the emitter never meet them.
Positions are (block, statement index) as lowering built them: valid until a pass runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..span import Span

FACTS_ATTR = "borrowck_facts"


@dataclass
class LoweringFacts:
    # A binding (re)starts here: `let x`, a `for`/`if let` pattern. The local is
    # uninitialised just before statement `index` (rustc's StorageLive).
    live: list[tuple[int, int, int]] = field(default_factory=list)  # (block, index, local)
    # The block that declared the local ends here (StorageDead); span: its closing brace.
    dead: list[tuple[int, int, int, Span]] = field(default_factory=list)
    # id(operand) -> (operand, span of the expression it was read from). The operand is
    # kept alive with its id, so the id cannot be reused by another object.
    operand_spans: dict[int, tuple[object, Span]] = field(default_factory=dict)

    def note_operand(self, op, span: Span):
        self.operand_spans[id(op)] = (op, span)
        return op

    def span_of(self, op, default: Span) -> Span:
        found = self.operand_spans.get(id(op))
        return found[1] if found is not None and found[0] is op else default


def take_facts(body) -> LoweringFacts:
    """Remove and return the facts lowering recorded for `body` (empty if none)."""
    facts = body.attrs.pop(FACTS_ATTR, None)
    return facts if isinstance(facts, LoweringFacts) else LoweringFacts()
