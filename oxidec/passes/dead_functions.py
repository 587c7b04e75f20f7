"""Dropping the `#[device]` functions no kernel calls: `drop_uncalled(program)`.

A helper that inlining copied into every caller (inline.py), or that nothing calls at all,
would still be optimised and written as a `.func` that no `call` reaches. nvcc does not
emit such a function either (whole-program mode: a `__device__` function without a caller
is internal and gone), and rustc generates code only for what is reachable. Dropping it
before the passes saves their work on it, the emitter's, and ptxas's.

Reachable means: called, directly or through other helpers, from a kernel. Only `Call`
terminators name another body (mir/syntax.py), so a walk over them finds every use.
A file without kernels keeps every function: it is a library being checked or looked at
(`--emit mir-opt`), and dropping everything would leave nothing to see.
"""
from __future__ import annotations

from ..mir.syntax import Call, Program


def drop_uncalled(program: Program) -> bool:
    """Remove from `program` the device bodies no kernel reaches; True if any was removed."""
    bodies = {body.name: body for body in program.bodies}
    reached = {body.name for body in program.bodies if body.kind == "kernel"}
    if not reached:
        return False
    todo = list(reached)
    while todo:
        for block in bodies[todo.pop()].blocks:
            term = block.terminator
            if isinstance(term, Call) and term.func in bodies and term.func not in reached:
                reached.add(term.func)
                todo.append(term.func)
    if len(reached) == len(program.bodies):
        return False
    program.bodies[:] = [body for body in program.bodies if body.name in reached]
    return True
