"""Block dimensions fixed by a launch contract become constants: `launch_dims(body)`.

A kernel whose `#[launch_contract(block = (X, Y, Z))]` fixes its block shape is emitted
with `.reqntid X, Y, Z`, and the driver refuses a launch with another shape (the PTX itself
enforces it, as check_elim.py already relies on). Its reads of `%ntid.x/y/z` are then the
constants X, Y, Z:

    _5 = @ntid.x();                     _5 = const 256_u32;
    _6 = @ntid.y();          ->         _6 = const 1_u32;

and the passes after it fold what they feed: `thread::index_1d()`'s test that the launch is
one-dimensional loses its ntid.y/ntid.z half, `blockIdx.x * blockDim.x + threadIdx.x` its
multiply by a register (scan, softmax, rmsnorm, stencil, transpose).
"""
from __future__ import annotations

from ..mir.syntax import Assign, Body, Constant, Intrinsic, Use
from ..types import U32

AXES = {"ntid.x": 0, "ntid.y": 1, "ntid.z": 2}


def launch_dims(body: Body) -> bool:
    block = body.launch.block if body.launch is not None and body.kind == "kernel" else None
    if not block:
        return False
    changed = False
    for bb in body.blocks:
        for stmt in bb.statements:
            if isinstance(stmt, Assign) and isinstance(stmt.rvalue, Intrinsic) \
                    and stmt.rvalue.name in AXES and not stmt.rvalue.args:
                n = int(block[AXES[stmt.rvalue.name]])
                stmt.rvalue = Use(Constant(n, U32))
                changed = True
    return changed
