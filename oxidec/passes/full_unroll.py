"""Full unrolling of loops whose induction variable runs through constants: `full_unroll(body)`.

`for` loops over constant ranges are unrolled when lowering; this is for the `while` loops
of reductions and scans, whose variable starts at a constant and steps by a constant
operation (`half /= 2`, `offset >>= 1`, `delta *= 2`):

    bb3: { ...; _24 = const 128_usize; _25 = Ge(copy _24, const 64_usize);
           switchInt(copy _25) -> [0: bb6, otherwise: bb5]; }
    bb5: { BODY reading copy _24 ... goto -> bb8; }
    bb8: { sync_threads(); _24 = Div(copy _24, const 2_usize);
           _25 = Ge(copy _24, const 64_usize); switchInt(copy _25) -> [0: bb6, otherwise: bb5]; }
becomes one copy of the loop's blocks per iteration (here two: _24 = 128, then 64), each
reading the variable's value as a constant, chained by gotos:

    bb3:  { ...; _24 = const 128_usize; _25 = Ge(const 128_usize, const 64_usize);
            switchInt(copy _25) -> [0: bb6, otherwise: bb10]; }
    bb10: { _24 = const 128_usize; BODY reading const 128_usize ... goto -> bb11; }
    bb11: { sync_threads(); _24 = const 64_usize; _25 = Ge(const 64_usize, const 64_usize);
            goto -> bb12; }
    bb12: { _24 = const 64_usize; BODY reading const 64_usize ... goto -> bb13; }
    bb13: { sync_threads(); _24 = const 32_usize; _25 = Ge(const 32_usize, const 64_usize);
            goto -> bb6; }

(const_fold then folds the guard and the bodies' arithmetic; the old blocks are unreachable.)
The trip count is found by running the variable's update and the exit test with
`consteval`'s target arithmetic, so the copies run exactly the iterations the loop would.

A loop qualifies when: it has one way in (a block that leaves the variable holding a
constant); one latch, which is the block that tests the exit, on a comparison of the
variable with a constant computed after the variable's only update in the loop (so every
iteration runs the update once, and no other block of the loop writes the variable); at
most MAX_TRIPS iterations and BUDGET statements in all copies. Loops with warp collectives
and barriers qualify: every copy runs where the iteration ran.
"""
from __future__ import annotations

import copy

from ..mir.syntax import (
    Assign, BasicBlock, BinaryOp, Body, Constant, Copy, Goto, Move, Place, StorageDead,
    StorageLive, SwitchInt, Use, COMPARISONS,
)
from ..mir.cfg import Loop, has_cycle, map_targets, outside_predecessors, predecessors
from ..mir.visit import (
    address_taken, kept, kept_loops, rewrite_statement, rewrite_terminator, statement_def,
)
from ..types import IntTy
from .consteval import eval_binary
from .loops import local_defs

MAX_TRIPS = 16
BUDGET = 256  # statements in all copies together
STEP_OPS = ("add", "sub", "mul", "div", "shl", "shr")


def full_unroll(body: Body) -> bool:
    if not kept(body, has_cycle):  # no loop (cfg.has_cycle): nothing to do
        return False
    # kept analyses (mir.visit.kept): the body changes only when a loop is unrolled, and
    # then we stop
    taken = kept(body, address_taken)
    preds = kept(body, predecessors)
    defs = kept(body, local_defs)
    for loop in kept(body, kept_loops):  # innermost first; one loop per call keeps numbering simple
        if _unroll(body, loop, taken, preds, defs):
            return True
    return False


def _unroll(body: Body, loop: Loop, taken: set[int], preds, defs) -> bool:
    if len(loop.latches) != 1:
        return False
    latch = loop.latches[0]
    outside = outside_predecessors(body, loop, preds)
    if len(outside) != 1:
        return False
    entry = outside[0]
    shape = _latch_shape(body, loop, latch)
    if shape is None:
        return False
    var, update_at, step_op, step, test_at = shape
    if var in taken or not isinstance(body.locals[var].ty, IntTy):
        return False
    # another statement inside that writes var (var is an integer: no write through it)
    if any(d.block in loop.blocks and d.index < len(body.blocks[d.block].statements)
           and (d.block, d.index) != (latch, update_at) for d in defs.get(var, ())):
        return False
    start = _value_on_exit(body, entry, var)
    if start is None:
        return False
    values = _trip_values(body, latch, test_at, var, start, step_op, step, loop)
    if values is None:
        return False
    trips, exit_target = values
    if trips and _larger_than(body, loop, BUDGET // len(trips)):  # len(trips) * size > BUDGET
        return False
    _copy_iterations(body, loop, entry, latch, update_at, var, trips, exit_target)
    return True


def _larger_than(body: Body, loop: Loop, limit: int) -> bool:
    """The loop has more than `limit` statements and terminators (counted until there:
    the outer loops of a nest are large, and counting each whole was quadratic in the
    nesting)."""
    blocks = body.blocks
    size = 0
    for b in loop.blocks.lazily() if hasattr(loop.blocks, "lazily") else loop.blocks:
        size += len(blocks[b].statements) + 1
        if size > limit:
            return True
    return False


def _latch_shape(body: Body, loop: Loop, latch: int):
    """(var, index of its update, op, step constant, index of the test) of a latch that ends
    `var = Op(copy var, const); ...; c = Cmp(var, const) | Cmp(const, var); switchInt(c)`."""
    block = body.blocks[latch]
    term = block.terminator
    if not (isinstance(term, SwitchInt) and isinstance(term.discr, (Copy, Move))
            and not term.discr.place.projection):
        return None
    cond = term.discr.place.local
    test_at = _last_def(block.statements, cond)
    if test_at is None:
        return None
    test = block.statements[test_at].rvalue
    if not (isinstance(test, BinaryOp) and test.op in COMPARISONS):
        return None
    var = _the_local(test.lhs) if isinstance(test.rhs, Constant) else _the_local(test.rhs)
    if var is None or not (isinstance(test.lhs, Constant) or isinstance(test.rhs, Constant)):
        return None
    update_at = _last_def(block.statements[:test_at], var)
    if update_at is None:
        return None
    upd = block.statements[update_at].rvalue
    if not (isinstance(upd, BinaryOp) and upd.op in STEP_OPS and _the_local(upd.lhs) == var
            and isinstance(upd.rhs, Constant)):
        return None
    if any(statement_def(s) is not None and statement_def(s).local == cond
           for s in block.statements[test_at + 1:]):
        return None
    return var, update_at, upd.op, upd.rhs, test_at


def _the_local(op) -> int | None:
    if isinstance(op, (Copy, Move)) and not op.place.projection:
        return op.place.local
    return None


def _last_def(statements, local: int) -> int | None:
    for i in range(len(statements) - 1, -1, -1):
        d = statement_def(statements[i])
        if d is not None and d.local == local:
            return i if not d.projection and isinstance(statements[i], Assign) else None
    return None


def _value_on_exit(body: Body, block: int, var: int) -> Constant | None:
    """The constant `var` holds at the end of `block`, if its last def there sets one."""
    stmts = body.blocks[block].statements
    at = _last_def(stmts, var)
    if at is None:
        return None
    rv = stmts[at].rvalue
    if isinstance(rv, Use) and isinstance(rv.operand, Constant):
        return rv.operand
    return None


def _trip_values(body, latch, test_at, var, start, step_op, step, loop):
    """([value of var at the start of each iteration], the exit's target), or None."""
    test = body.blocks[latch].statements[test_at].rvalue
    term = body.blocks[latch].terminator
    trips, value = [], start
    while len(trips) < MAX_TRIPS:
        trips.append(value)
        value = eval_binary(step_op, value, step)
        if value is None:
            return None
        lhs = value if _the_local(test.lhs) == var else test.lhs
        rhs = value if _the_local(test.rhs) == var else test.rhs
        cond = eval_binary(test.op, lhs, rhs)
        if cond is None:
            return None
        target = _switch_target(term, int(cond.value))
        if target == loop.header:
            continue
        return (trips, target) if target not in loop.blocks else None
    return None


def _switch_target(term: SwitchInt, value: int) -> int:
    for v, t in zip(term.values, term.targets):
        if v == value:
            return t
    return term.otherwise


def _copy_iterations(body, loop, entry, latch, update_at, var, trips, exit_target):
    blocks = sorted(loop.blocks)
    update = body.blocks[latch].statements[update_at].rvalue
    latch_copies, header_copies = [], []
    for value in trips:
        base = len(body.blocks)
        number = {b: base + i for i, b in enumerate(blocks)}
        after = eval_binary(update.op, value, update.rhs)
        for b in blocks:
            src = body.blocks[b]
            stmts = []
            if b == loop.header:
                stmts.append(Assign(Place(var), Use(value), src.terminator.span))
            for i, stmt in enumerate(src.statements):
                stmt = copy.copy(stmt)
                if b == latch and i == update_at:
                    stmt.rvalue = Use(after)
                elif not isinstance(stmt, (StorageLive, StorageDead)):
                    known = after if b == latch and i > update_at else value
                    rewrite_statement(stmt, op_fn=_constant_for(var, known))
                stmts.append(stmt)
            term = copy.copy(src.terminator)
            if b == latch:
                term = Goto(exit_target, term.span)  # or the next copy's header, below
            else:
                rewrite_terminator(term, op_fn=_constant_for(var, value))
                map_targets(term, lambda t: number.get(t, t))
            body.blocks.append(BasicBlock(stmts, term))
        latch_copies.append(number[latch])
        header_copies.append(number[loop.header])
    for k in range(len(trips) - 1):
        body.blocks[latch_copies[k]].terminator.target = header_copies[k + 1]
    map_targets(body.blocks[entry].terminator,
                lambda t: header_copies[0] if t == loop.header else t)
    _forward_start(body.blocks[entry], var, trips[0])


def _forward_start(block: BasicBlock, var: int, value: Constant) -> None:
    """Read the start value as a constant after its def in the entry block (the guard)."""
    at = _last_def(block.statements, var)
    for stmt in block.statements[at + 1:]:
        if not isinstance(stmt, (StorageLive, StorageDead)):
            rewrite_statement(stmt, op_fn=_constant_for(var, value))
    rewrite_terminator(block.terminator, op_fn=_constant_for(var, value))
    # the guard's test is now on constants: decide it here (the test's local has other
    # defs, in the copies, so const_fold would not forward it to the switch)
    term = block.terminator
    cond = _the_local(term.discr) if isinstance(term, SwitchInt) else None
    at = _last_def(block.statements, cond) if cond is not None else None
    rv = block.statements[at].rvalue if at is not None else None
    if isinstance(rv, BinaryOp) and isinstance(rv.lhs, Constant) and isinstance(rv.rhs, Constant):
        decided = eval_binary(rv.op, rv.lhs, rv.rhs)
        if decided is not None:
            block.terminator = Goto(_switch_target(term, int(decided.value)), term.span)


def _constant_for(var: int, value: Constant):
    def op_fn(op):
        if isinstance(op, (Copy, Move)) and op.place == Place(var):
            return value
        return op
    return op_fn
