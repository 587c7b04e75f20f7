"""Loop-carried bools in integer registers: `loop_bools(body)`, the last rewrite before PTX.

A bool local lives in a `.pred` register. ptxas 13.0 (and the driver JIT at -O1 and up,
sm_80 and sm_90) miscompiles a predicate that is

- tested by a branch before a loop (`@!%p3 bra` around the loop: `if x { loop { .. } }`),
- redefined inside the loop (`x = !x`, or any `setp` into it), and branched on there,
- in a loop that holds a subroutine call (f64 `div.rn`/`rcp.rn`/`sqrt.rn`, a `.func`),

when the function has two or more earlier exits (bounds-check traps): it takes the value
the first branch proved ("x is true") for the value at every iteration, drops the loop-
carried redefinition, and deletes the code of the other arm (oracle program p40533;
tests/oracle/open/ptxas_loop_pred.ptx is a 45-line PTX reproducer: the constant of the
`x == true` arm is not in the SASS). Copies do not help (`mov.pred`, `selp` + `setp` into
a fresh predicate are seen through); keeping the variable in a `.b32` register (0/1) and
testing it with a fresh `setp.ne` at each read does, in every variant tried.

So a bool local that is assigned inside a loop and assigned more than once (a variable
carried from one iteration or from before the loop, not a temporary of one iteration)
gets a `u32` home local: every write stores `x as u32`, every read is `home != 0` into a
new bool temporary. The values are the same, so the simulator, which runs this MIR too,
is unaffected; ptxas keeps the predicate logic it derives from the comparisons.
"""
from __future__ import annotations

from ..mir.cfg import blocks_on_cycles
from ..mir.syntax import (Assign, BinaryOp, Body, Cast, Constant, Copy, LocalDecl, Move, Place,
                          Use)
from ..mir.visit import address_taken, defs, rewrite_statement, rewrite_terminator
from ..types import BOOL, U32


def loop_bools(body: Body) -> bool:
    moved = _loop_carried_bools(body)
    if not moved:
        return False
    homes: dict[int, int] = {}  # bool local -> its u32 home
    for old in moved:
        decl = body.locals[old]
        body.locals.append(LocalDecl(U32, decl.name, True, decl.span))
        homes[old] = len(body.locals) - 1
    for block in body.blocks:
        out = []
        for stmt in block.statements:
            out += _reads_from_homes(body, homes, stmt, rewrite_statement)
            if type(stmt) is Assign and not stmt.place.projection and stmt.place.local in homes:
                out += _write_home(body, homes[stmt.place.local], stmt)
            else:
                out.append(stmt)
        out += _reads_from_homes(body, homes, block.terminator, rewrite_terminator)
        block.statements = out
    return True


def _loop_carried_bools(body: Body) -> list[int]:
    """The bool locals to move, in index order."""
    cyclic = blocks_on_cycles(body)
    if not cyclic:
        return []
    in_loop: set[int] = set()
    for b in cyclic:
        for stmt in body.blocks[b].statements:
            if type(stmt) is Assign and not stmt.place.projection:
                in_loop.add(stmt.place.local)
    taken = address_taken(body)
    writes = defs(body)
    out = []
    for local in sorted(in_loop):
        if body.locals[local].ty != BOOL or local == 0 or local in body.args() or local in taken:
            continue
        sites = writes.get(local, [])
        if len(sites) >= 2 and all(type(s) is Assign and not s.place.projection for s in sites):
            out.append(local)
    return out


def _reads_from_homes(body: Body, homes: dict[int, int], node, rewrite_fn) -> list:
    """`tmp = home != 0` for each moved local that `node` reads, with `node`'s operands
    renamed to the temporaries (in place); the new statements go before `node`."""
    loads: list = []
    temps: dict[int, int] = {}
    span = getattr(node, "span", None) or body.span

    def rename(op):
        if type(op) in (Copy, Move) and not op.place.projection and op.place.local in homes:
            local = op.place.local
            if local not in temps:
                body.locals.append(LocalDecl(BOOL, None, False, span))
                temps[local] = len(body.locals) - 1
                test = BinaryOp("ne", Copy(Place(homes[local])), Constant(0, U32))
                loads.append(Assign(Place(temps[local]), test, span))
            return Copy(Place(temps[local]))
        return op

    rewrite_fn(node, rename)
    return loads


def _write_home(body: Body, home: int, stmt: Assign) -> list:
    """`x = rv` -> `home = 0/1` for a constant, else `tmp = rv; home = tmp as u32`."""
    rv = stmt.rvalue
    if type(rv) is Use and type(rv.operand) is Constant:
        return [Assign(Place(home), Use(Constant(int(bool(rv.operand.value)), U32)), stmt.span)]
    body.locals.append(LocalDecl(BOOL, None, False, stmt.span))
    tmp = len(body.locals) - 1
    return [Assign(Place(tmp), rv, stmt.span),
            Assign(Place(home), Cast(Copy(Place(tmp)), U32), stmt.span)]


__all__ = ["loop_bools"]
