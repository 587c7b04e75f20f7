"""Control-flow cleanup: `simplify_cfg(body)` and its first step `remove_unreachable(body)`.

To a fixpoint:
- a `switchInt` whose arms all go where `otherwise` goes becomes `goto` (arms that go
  there anyway are dropped);
- jumps to an empty block that only does `goto` go straight to its end; a `goto` to an
  empty block that only returns (or is unreachable) becomes that terminator;
- a block that a `goto` enters as its only predecessor is appended to that block;
- blocks the entry cannot reach are removed, and targets renumbered in order.

    bb0: {                                  bb0: {
        _2 = const 1_i32;                       _2 = const 1_i32;
        goto -> bb1;                            sync_threads();
    }                                           return;
    bb1: {                            ->    }
        sync_threads();
        goto -> bb3;
    }
    bb2: { goto -> bb1; }   // unreachable
    bb3: { return; }

Block 0 stays the entry. Statements only ever move into a block that always runs right
before them (a straight-line merge), so no `Effect` (e.g. a `sync_threads` barrier) is
duplicated or moved into different control flow.
"""
from __future__ import annotations

from ..mir.syntax import Body, Goto, Return, SwitchInt, Unreachable
from ..mir.cfg import map_targets, predecessor_counts, reachable, successors
from ..mir.visit import renumber_blocks

MAX_ROUNDS = 32


def remove_unreachable(body: Body) -> bool:
    """Drop the blocks the entry cannot reach; True if any was dropped."""
    return renumber_blocks(body, reachable(body))


def simplify_cfg(body: Body) -> bool:
    changed = remove_unreachable(body)
    for _ in range(MAX_ROUNDS):
        step = collapse_switches(body)
        step |= thread_jumps(body)
        step |= merge_blocks(body)
        step |= remove_unreachable(body)
        if not step:
            break
        changed = True
    return changed


def collapse_switches(body: Body) -> bool:
    changed = False
    for block in body.blocks:
        term = block.terminator
        if not isinstance(term, SwitchInt):
            continue
        arms = [(v, t) for v, t in zip(term.values, term.targets) if t != term.otherwise]
        if not arms:
            block.terminator = Goto(term.otherwise, term.span)
            changed = True
        elif len(arms) != len(term.values):
            term.values = tuple(v for v, _ in arms)
            term.targets = tuple(t for _, t in arms)
            changed = True
    return changed


def _is_empty_goto(body: Body, b: int) -> bool:
    block = body.blocks[b]
    return not block.statements and isinstance(block.terminator, Goto)


def _final_target(body: Body, t: int) -> int:
    """Where a jump to `t` ends up after skipping empty goto-only blocks (stops on cycles)."""
    seen = {t}
    while _is_empty_goto(body, t):
        nxt = body.blocks[t].terminator.target
        if nxt in seen:
            break
        seen.add(nxt)
        t = nxt
    return t


def thread_jumps(body: Body) -> bool:
    changed = False
    for block in body.blocks:
        before = successors(block.terminator)
        map_targets(block.terminator, lambda t: _final_target(body, t))
        term = block.terminator
        if isinstance(term, Goto):
            dest = body.blocks[term.target]
            if not dest.statements and isinstance(dest.terminator, (Return, Unreachable)):
                block.terminator = type(dest.terminator)(dest.terminator.span)
        changed |= block.terminator is not term or successors(term) != before
    return changed


def merge_blocks(body: Body) -> bool:
    """Append each block to its predecessor when that is its only one and ends in `goto`."""
    preds = predecessor_counts(body)
    merged = [False] * len(body.blocks)
    changed = False
    for b, block in enumerate(body.blocks):
        if merged[b]:
            continue
        while isinstance(block.terminator, Goto):
            s = block.terminator.target
            if s == b or s == 0 or preds[s] != 1 or merged[s]:
                break
            succ = body.blocks[s]
            block.statements = block.statements + succ.statements
            block.terminator = succ.terminator
            merged[s] = True
            changed = True
    return changed
