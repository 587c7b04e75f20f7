"""A greedy reducer for oracle mismatches: drops statements and replaces expressions by one of
their operands or by a zero literal, keeping each change that preserves the fault.

A candidate is kept when rustc still accepts it, still runs it without a panic, and oxidec still
fails the same way (`same_fault`): the same diagnostic code, the same kind of internal error, or
outputs that still differ. Candidates are checked in batches (one rustc binary per batch).
"""
from __future__ import annotations

import copy
import time

import gen
from gen import Node, SCALARS


def all_nodes(prog: gen.Program) -> list[Node]:
    return [n for it in prog.items for n in it.walk()]


def zero(ty: str) -> str:
    if ty == "bool":
        return "false"
    if ty in gen.FLOAT_TYPES:
        return f"0.0{ty}"
    return f"0{ty}"


def candidates(prog: gen.Program):
    ns = all_nodes(prog)
    # big cuts first: halves and quarters of each block's removable statements
    for i, n in enumerate(ns):
        if n.kind == "block":
            rem = [j for j, s in enumerate(n.parts) if s.removable]
            for parts in (2, 4):
                if len(rem) >= 2 * parts:
                    size = (len(rem) + parts - 1) // parts
                    for k in range(0, len(rem), size):
                        yield ("delset", i, tuple(rem[k:k + size]))
    for i, n in enumerate(ns):
        if n.kind == "block":
            for j in range(len(n.parts) - 1, -1, -1):
                if n.parts[j].removable:
                    yield ("del", i, j)
    for i, n in enumerate(ns):
        if n.kind == "stmt" and n.removable:
            # `if c {A} else {B}` -> A's statements in place is not attempted; drop `else`
            for j, p in enumerate(n.parts):
                if p == " else " and j + 1 < len(n.parts):
                    yield ("cut", i, j)
    for i, n in enumerate(ns):
        if n.kind == "expr" and n.ty in SCALARS:
            for j, p in enumerate(n.parts):
                if isinstance(p, Node) and p.kind == "expr" and p.ty == n.ty:
                    yield ("child", i, j)
            if not (len(n.parts) == 1 and isinstance(n.parts[0], str)
                    and n.parts[0] == zero(n.ty)):
                yield ("zero", i, 0)


def apply(prog: gen.Program, edit) -> gen.Program:
    new = copy.deepcopy(prog)
    kind, i, j = edit
    n = all_nodes(new)[i]
    if kind == "del":
        del n.parts[j]
    elif kind == "delset":
        n.parts = [p for k, p in enumerate(n.parts) if k not in j]
    elif kind == "cut":
        del n.parts[j:j + 2]
    elif kind == "child":
        child = n.parts[j]
        n.parts = list(child.parts)
    else:
        n.parts = [zero(n.ty)]
    return new


def same_fault(orig, o) -> bool:
    if o.verdict != "mismatch":
        return False
    if orig.cause == "outputs differ":
        return o.cause == "outputs differ"
    return o.cause == orig.cause


def reduce(outcome, opt_level: int = 2, budget_s: float = 120.0, batch: int = 12):
    """The smallest program found that fails like `outcome`, and its outcome."""
    import oracle
    best, best_o = outcome.program, outcome
    t0 = time.time()
    tried: set[str] = set()
    progress = True
    while progress and time.time() - t0 < budget_s:
        progress = False
        pending = []
        for edit in candidates(best):
            cand = apply(best, edit)
            src = cand.source()
            if src in tried:
                continue
            tried.add(src)
            pending.append(cand)
            if len(pending) == batch:
                found = _first_failing(pending, outcome, opt_level)
                pending = []
                if found:
                    best, best_o = found
                    progress = True
                    break
            if time.time() - t0 > budget_s:
                break
        else:
            if pending:
                found = _first_failing(pending, outcome, opt_level)
                if found:
                    best, best_o = found
                    progress = True
    return best, best_o


def _first_failing(cands, outcome, opt_level):
    import oracle
    progs = {f"p{k}": c for k, c in enumerate(cands)}
    outs = oracle.check_programs(progs, opt_level, jobs=2)
    for c, o in zip(cands, outs):
        if same_fault(outcome, o):
            return c, o
    return None
