"""Short-circuit booleans without branches: `bool_select(body)`.

`a && b` and `a || b` lower to a branch on `a` whose arms assign the result, one with `b`
and one with a constant; when `b` is pure and cannot trap (licm.py's `speculatable`:
usually a comparison), evaluating it unconditionally gives the same result, so the
branch becomes one `BitAnd` / `BitOr` of the two:

    bb0: { _3 = Lt(copy _1, copy _2);                bb0: { _3 = Lt(copy _1, copy _2);
           switchInt(copy _3) -> [0: bb2, otherwise: bb1]; }   _6 = Lt(copy _4, copy _2);
    bb1: { _5 = Lt(copy _4, copy _2); goto -> bb3; }   ->       _5 = BitAnd(copy _3, copy _6);
    bb2: { _5 = const false; goto -> bb3; }                     goto -> bb3; }
    bb3: { switchInt(copy _5) -> [...]; }

ptxas then combines the comparisons into one predicate (`ISETP.GE.OR`, as for nvcc's
`&&`) instead of materialising the result on each side (two PLOP3 and predicated
compares per `&&`). The arms must be blocks of that one assignment, entered only from
the branch, and joining at the same block; the operands of `b` are then already defined
at the branch (the arm reads nothing else the arm defines).
"""
from __future__ import annotations

from ..mir.syntax import Assign, BinaryOp, Body, Constant, Copy, Goto, Move, Place, SwitchInt, Use
from ..types import BOOL
from .affine import Builder
from .licm import speculatable
from ..mir.cfg import predecessor_counts
from ..mir.visit import rvalue_reads


def bool_select(body: Body) -> bool:
    preds = predecessor_counts(body)
    changed = False
    for a, block in enumerate(body.blocks):
        term = block.terminator
        if not (isinstance(term, SwitchInt) and term.values == (0,)
                and isinstance(term.discr, (Copy, Move)) and not term.discr.place.projection
                and body.locals[term.discr.place.local].ty == BOOL):
            continue
        t, f = term.otherwise, term.targets[0]
        if t == f or preds[t] != 1 or preds[f] != 1 or a in (t, f):
            continue
        arm_t, arm_f = _arm(body, t), _arm(body, f)
        if arm_t is None or arm_f is None or arm_t[0] != arm_f[0] or arm_t[2] != arm_f[2]:
            continue
        dest, join = arm_t[0], arm_t[2]
        rv_t, rv_f = arm_t[1], arm_f[1]
        if _is_const(rv_f, False) and _pure(rv_t, dest):
            op, other = "bitand", rv_t  # a && b
        elif _is_const(rv_t, True) and _pure(rv_f, dest):
            op, other = "bitor", rv_f  # a || b
        else:
            continue
        build = Builder(body, term.span)
        b = build.assign(other, BOOL)
        block.statements = block.statements + build.stmts + [
            Assign(dest, BinaryOp(op, term.discr, b), term.span)]
        block.terminator = Goto(join, term.span)
        changed = True
        preds = predecessor_counts(body)
    return changed


def _arm(body: Body, b: int):
    """(dest, rvalue, join) when the block is `dest = rvalue; goto -> join` on a bool."""
    block = body.blocks[b]
    if len(block.statements) != 1 or not isinstance(block.terminator, Goto):
        return None
    stmt = block.statements[0]
    if not (isinstance(stmt, Assign) and not stmt.place.projection
            and body.locals[stmt.place.local].ty == BOOL):
        return None
    return stmt.place, stmt.rvalue, block.terminator.target


def _is_const(rv, value: bool) -> bool:
    return isinstance(rv, Use) and isinstance(rv.operand, Constant) and rv.operand.value is value


def _pure(rv, dest: Place) -> bool:
    return speculatable(rv) and dest.local not in set(rvalue_reads(rv))


__all__ = ["bool_select"]
