"""Locals that hold threadIdx.x plus a multiple of 32 that is the same in the whole warp:
the divergence check's "lane-linear" values (`x / 32` of them is warp-uniform, `x % 32` the
lane). Read from their single definitions, without the taint levels (which need them)."""
from __future__ import annotations

from ...device_api.ops import OPS
from ...mir import syntax as M


def lane_linear_locals(body: M.Body) -> set[int]:
    """Locals that hold threadIdx.x plus a multiple of 32 that is the same in the whole
    warp (possibly cast): threadIdx.x itself, and the global index blockIdx.x *
    blockDim.x + threadIdx.x (`index_1d().get()`, invalid ones included: a uniform
    `select` between it and a constant). Like the rest of this check, it assumes
    blockDim.x is a multiple of 32, so their value / 32 is the same in a warp and
    their value % 32 is the lane."""
    defs: dict[int, list] = {}
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, M.Assign):
                defs.setdefault(stmt.place.local, []).append(stmt)

    def single(op):
        if not isinstance(op, (M.Copy, M.Move)) or op.place.projection:
            return None
        ds = defs.get(op.place.local, [])
        return ds[0].rvalue if len(ds) == 1 and not ds[0].place.projection else None

    def block_sized(op) -> bool:  # blockDim.x (a multiple of 32, assumed), possibly cast
        for _ in range(8):
            rv = single(op)
            if isinstance(rv, M.Intrinsic):
                return rv.name == "ntid.x"
            if not isinstance(rv, (M.Use, M.Cast)):
                return False
            op = rv.operand
        return False

    def uniform(op, depth: int = 0) -> bool:  # built from launch-uniform registers only
        if isinstance(op, M.Constant):
            return True
        rv = single(op)
        if depth > 12 or rv is None:
            return False
        if isinstance(rv, M.Intrinsic):
            row = OPS.get(rv.name)
            return row is not None and row.sreg is not None and row.varies == 0 and \
                not rv.args
        if isinstance(rv, (M.Use, M.Cast, M.UnaryOp)):
            return uniform(rv.operand, depth + 1)
        if isinstance(rv, M.BinaryOp):
            return uniform(rv.lhs, depth + 1) and uniform(rv.rhs, depth + 1)
        return False

    def warp_multiple(op) -> bool:  # a multiple of 32, the same in the whole warp
        if isinstance(op, M.Constant):
            return isinstance(op.value, int) and op.value % 32 == 0
        rv = single(op)
        return isinstance(rv, M.BinaryOp) and rv.op == "mul" and \
            (block_sized(rv.lhs) or block_sized(rv.rhs)) and uniform(op)

    def member(op) -> bool:
        return isinstance(op, (M.Copy, M.Move)) and not op.place.projection and \
            op.place.local in exact

    exact: set[int] = set()
    changed = True
    while changed:
        changed = False
        for local, ds in defs.items():
            if local in exact or len(ds) != 1 or ds[0].place.projection:
                continue
            rv = ds[0].rvalue
            if isinstance(rv, M.Intrinsic) and rv.name == "tid.x" or \
                    isinstance(rv, (M.Use, M.Cast)) and member(rv.operand) or \
                    isinstance(rv, M.BinaryOp) and rv.op == "add" and (
                        member(rv.lhs) and warp_multiple(rv.rhs)
                        or member(rv.rhs) and warp_multiple(rv.lhs)) or \
                    isinstance(rv, M.Intrinsic) and rv.name == "select" and \
                    uniform(rv.args[0]) and member(rv.args[1]) and \
                    (member(rv.args[2]) or isinstance(rv.args[2], M.Constant)):
                exact.add(local)
                changed = True
    return exact

