"""Inlining of `#[device]` and plain helper functions at their calls: `inline_program(program)`.

ptxas keeps a `.func` as a subroutine (CALL.REL, the arguments through the parameter space,
no constant folding or scheduling across the call), and nvcc inlines such helpers: so a
call whose callee is small enough and not marked `#[inline(never)]` is replaced by a copy
of the callee's blocks. The callee's locals become fresh locals of the caller, its
parameters are assigned the call's arguments, and each `return` assigns the callee's
return place to the call's destination and jumps to the call's target:

    caller bb3: { ...; _7 = warp_scan(copy _5, copy _6) -> bb4; }
    callee (fn warp_scan(_1: u32, _2: u32) -> u32): bb0: { ...; _0 = copy _3; return; }
becomes
    bb3: { ...; _20 = copy _5; _21 = copy _6; goto -> bb9; }     (_20, _21: the parameters)
    bb9: { ...; _19 = copy _22; _7 = copy _19; goto -> bb4; }    (_19: the return place)

The copy runs exactly the statements the call would have, on values that no one else can
see (the callee's locals are its own), so the simulator and the GPU compute the same
results. Callees are inlined into first (bottom-up), so that a chain of helpers flattens;
a callee that (transitively) calls itself, or whose locals have their address taken (the
caller would lose the passes that track values, see passes/__init__.py), stays a call.
The callee's body stays in the program while a call to it is left; one that no kernel
calls any more is dropped next (dead_functions.py).
"""
from __future__ import annotations

import copy

from ..mir.syntax import (
    Assign, BasicBlock, Body, Call, Copy, Goto, Index, LocalDecl, Place, Program, Return,
    StorageDead, StorageLive, Use,
)
from ..mir.cfg import map_targets
from ..mir.refs import address_taken
from ..mir.visit import rewrite_statement, rewrite_terminator
from ..types import UNIT, DisjointSliceTy, RefTy

MAX_CALLEE_STATEMENTS = 400  # larger helpers stay calls (code size, compile time)


def inline_program(program: Program) -> bool:
    """Inline every eligible call in every body of `program`; True if any was inlined."""
    bodies = {b.name: b for b in program.bodies}
    done: set[str] = set()
    active: set[str] = set()
    changed = False

    def visit(body: Body) -> None:
        nonlocal changed
        if body.name in done:
            return
        active.add(body.name)
        for block in body.blocks:
            term = block.terminator
            if isinstance(term, Call) and term.func in bodies and term.func not in active:
                visit(bodies[term.func])
        active.discard(body.name)
        changed |= inline_calls(body, bodies, active)
        done.add(body.name)

    for body in program.bodies:
        visit(body)
    return changed


def can_inline(callee: Body, caller: Body) -> bool:
    if callee is caller or callee.kind != "device" or callee.inline == "never":
        return False
    if any(isinstance(b.terminator, Call) and b.terminator.func == callee.name
           for b in callee.blocks):
        return False  # directly recursive
    if address_taken(callee):
        return False
    if any(isinstance(callee.locals[p].ty, RefTy)
           and isinstance(callee.locals[p].ty.inner, DisjointSliceTy) for p in callee.args()):
        # `&mut DisjointSlice` reaches the callee as an address; inlined, ref_elim would
        # forward the caller's slice into `(*_p)[i]` as `_s[i]`, which is not a place
        return False
    size = sum(len(b.statements) + 1 for b in callee.blocks)
    return callee.inline == "always" or size <= MAX_CALLEE_STATEMENTS


def inline_calls(body: Body, bodies: dict[str, Body], active: set[str]) -> bool:
    """Inline the eligible calls of `body` (one pass over its blocks, new blocks included)."""
    changed = False
    i = 0
    while i < len(body.blocks):
        term = body.blocks[i].terminator
        callee = bodies.get(term.func) if isinstance(term, Call) else None
        if callee is not None and callee.name not in active and can_inline(callee, body):
            inline_one(body, i, callee)
            changed = True
        i += 1
    return changed


def inline_one(body: Body, at: int, callee: Body) -> None:
    """Replace the Call terminating block `at` of `body` by a copy of `callee`."""
    call = body.blocks[at].terminator
    assert isinstance(call, Call)
    local_base = len(body.locals)
    for decl in callee.locals:
        body.locals.append(LocalDecl(decl.ty, decl.name, decl.mutable, decl.span))
    block_base = len(body.blocks)

    def place_fn(place: Place, is_def: bool) -> Place:
        proj = tuple(Index(p.local + local_base) if isinstance(p, Index) else p
                     for p in place.projection)
        return Place(place.local + local_base, proj)

    for block in callee.blocks:
        stmts = []
        for stmt in block.statements:
            stmt = copy.copy(stmt)
            if isinstance(stmt, (StorageLive, StorageDead)):
                stmt.local += local_base
            else:
                rewrite_statement(stmt, place_fn=place_fn)
            stmts.append(stmt)
        term = copy.copy(block.terminator)
        if isinstance(term, Return):
            if callee.locals[0].ty != UNIT:
                stmts.append(Assign(call.destination,
                                    Use(Copy(Place(local_base))), term.span))
            term = Goto(call.target, term.span)
        else:
            rewrite_terminator(term, place_fn=place_fn)
            map_targets(term, lambda t: t + block_base)
        body.blocks.append(BasicBlock(stmts, term))

    entry = [Assign(Place(local_base + p), Use(arg), call.span)
             for p, arg in zip(callee.args(), call.args)]
    body.blocks[at].statements.extend(entry)
    body.blocks[at].terminator = Goto(block_base, call.span)
