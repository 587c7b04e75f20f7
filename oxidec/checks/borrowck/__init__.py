"""The ownership, aliasing and GPU-safety checks, on MIR, between lowering and the passes.

    borrowck(program, sink)

runs, for every body:
- moves.py       E0381 E0382 E0384 E0507   initialisation and moves
- mutability.py  E0594 E0596               writing through `&`, bindings that are not `mut`
- borrows.py     E0499 E0502 E0503 E0505 E0506 E0597 E0515   live borrows (NLL-style)
- divergence.py  OX0009                    barriers/warp collectives under thread-dependent
                                           control flow (needs the whole program: calls)
- shared_race.py OX0010 (lint `shared_race`, a warning)   shared-array races within one
                                           barrier interval

It runs on the MIR exactly as lowering made it: the passes may turn moves into copies or
delete dead borrows, which would hide errors. `unsafe` is checked just before
(`checks/unsafeck.py`).

OXIDEC_SKIP_BORROWCK=1 in the environment skips the analyses (not the storage statements'
removal); it exists only to measure what the checker costs. A reference to a local that
passes/ref_elim cannot replace (passed to a function, stored, returned, a raw pointer) makes
the local live in memory (mir/refs.address_taken).
"""
from __future__ import annotations

import os

from ...diagnostics import DiagnosticSink
from ...mir import syntax as M
from .dataflow import Cfg
from .facts import BindingScopes, take_storage
from .places import Accesses

SKIP_ENV = "OXIDEC_SKIP_BORROWCK"


def borrowck(program: M.Program, sink: DiagnosticSink) -> None:
    facts = {id(body): take_storage(body) for body in program.bodies}
    skip = bool(os.environ.get(SKIP_ENV))
    for body in program.bodies:
        if not skip:
            check_body(body, facts[id(body)], sink)
    if skip:
        return
    from .divergence import check_divergence
    from .shared_race import check_shared_races
    summaries, taints = check_divergence(program, sink)
    check_shared_races(program, summaries, taints, facts, sink)


def check_body(body: M.Body, facts: BindingScopes, sink: DiagnosticSink) -> None:
    from .borrows import check_borrows
    from .moves import check_moves
    from .mutability import check_mutability
    cfg = Cfg(body)
    acc = Accesses(body, facts)
    check_moves(body, cfg, acc, facts, sink)
    check_mutability(body, acc, sink)
    check_borrows(body, cfg, acc, facts, sink)


