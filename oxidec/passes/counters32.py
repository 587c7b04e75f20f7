"""Loop counters for narrow32.py: `j = init; while j < n { ...; j += k }` in the 32-bit
version, where j's values are its initial ones or below max(n) - 1 + k, so its test `j <
n` can be 32-bit too (a mixin of `Narrow`: it reads the copy's defs, preds and ranges)."""
from __future__ import annotations

from ..mir.syntax import (
    Assign, AtomicOp, BinaryOp, Call, Constant, Copy, Move, Operand, Place, SwitchInt,
)
from ..mir.visit import rvalue_reads
from ..types import IntTy
from . import index_ranges as R

STEP_MAX = (1 << 31) - 1


def _reads(rv, x: int) -> bool:
    return x in rvalue_reads(rv)


def _step(rv, x: int) -> int | None:
    """k, for `x = Add(copy x, const k)` with 0 < k < STEP_MAX."""
    if isinstance(rv, BinaryOp) and rv.op == "add" and rv.lhs == Copy(Place(x)) \
            and isinstance(rv.rhs, Constant) and 0 < rv.rhs.value < STEP_MAX:
        return rv.rhs.value
    return None


class Counters:
    # -- counters: `j = init; while j < n { ...; j += k }` -----------------------------
    def _counter(self, x: int):
        """(init statements, step, bounds) of an unsigned 64-bit local whose other writes
        are `x = Add(copy x, const k)`, each reached only through the true edge of a test
        `x < b` with x unchanged since; None for other locals. Its values are then the
        initial ones, or below max(b) - 1 + k."""
        ty = self.body.locals[x].ty
        ds = self.defs[x]
        if len(ds) < 2 or x in self.other_defs or type(ty) is not IntTy or ty.bits != 64 or ty.signed:
            return None
        inits, steps = [], {}
        where = self._where()
        for d in ds:
            if _step(d.rvalue, x) is None:
                if _reads(d.rvalue, x):
                    return None
                inits.append(d)
                continue
            b, _ = where[id(d)]
            steps.setdefault(b, [])
        if not inits or not steps:
            return None
        bounds: list = []
        step = 0
        for b in steps:
            # the block's writes of x: a run of increments (an unrolled loop's copies), the
            # first of them reached only through tests; then x <= max(bound) - 1 + their sum
            run = [st for st in self.body.blocks[b].statements if self._writes(st, x)]
            ks = [_step(st.rvalue, x) if isinstance(st, Assign) else None for st in run]
            if any(k is None for k in ks) or not self._tested(b, x, bounds, set(), 0):
                return None
            step = max(step, sum(ks))
        if step >= STEP_MAX:
            return None
        return inits, step, bounds

    def _where(self) -> dict[int, tuple[int, int]]:
        if not hasattr(self, "_where_map"):
            self._where_map = {id(st): (b, i)
                               for b in range(self.n, 2 * self.n)
                               for i, st in enumerate(self.body.blocks[b].statements)}
        return self._where_map

    @staticmethod
    def _writes(st, x: int) -> bool:
        return isinstance(st, Assign) and st.place.local == x or \
            isinstance(st, AtomicOp) and st.dest is not None and st.dest.local == x

    def _tested(self, b: int, x: int, bounds: list, seen: set, depth: int) -> bool:
        """Every way into block b passes a test `x < bound` (true) with x unchanged since."""
        if b in seen or depth > 8 or not self.preds[b] or b == self.n:
            return False
        seen.add(b)
        for p in self.preds[b]:
            pb = self.body.blocks[p]
            term = pb.terminator
            if isinstance(term, SwitchInt) and term.values == (0,) and term.otherwise == b \
                    and term.targets[0] != b and isinstance(term.discr, (Copy, Move)) \
                    and not term.discr.place.projection:
                c = term.discr.place.local
                test = None
                for st in reversed(pb.statements):
                    if self._writes(st, x):
                        break
                    if isinstance(st, Assign) and st.place == Place(c):
                        test = st.rvalue
                        break
                bound = self._bound_of(test, x, 0)
                if bound is not None:
                    bounds.append(bound)
                    continue
            if any(self._writes(st, x) for st in pb.statements) or isinstance(term, Call) \
                    and term.destination.local == x:
                return False
            if not self._tested(p, x, bounds, seen, depth + 1):
                return False
        return True

    def _bound_of(self, test, x: int, depth: int) -> Operand | None:
        """b, for a test `x < b` / `b > x`, or one of the conjuncts of a `BitAnd` (each
        written once); None for other tests."""
        if not isinstance(test, BinaryOp) or depth > 4:
            return None
        me = Copy(Place(x))
        if test.op == "lt" and test.lhs == me:
            return test.rhs
        if test.op == "gt" and test.rhs == me:
            return test.lhs
        if test.op == "bitand":
            for c in (test.lhs, test.rhs):
                if isinstance(c, (Copy, Move)) and not c.place.projection:
                    d = self._single(c.place.local)
                    got = self._bound_of(d.rvalue, x, depth + 1) if d is not None else None
                    if got is not None:
                        return got
        return None

    def _counter_range(self, x: int) -> R.Range | None:
        inits, step, bounds = self.ivs[x]
        got = self.inits.get(x, [])
        if len(got) < len(inits) or any(r is None for r in got):
            return None
        his = []
        for b in bounds:
            r = R.unsigned_value(self._base_rng(b), 64)
            if r is None:
                return None
            his.append(r[1] - 1 + step)
        lo = min(r[0] for r in got)
        hi = max([r[1] for r in got] + his)
        return (lo, hi) if lo >= 0 else None

    def _base_rng(self, op: Operand) -> R.Range | None:
        if isinstance(op, Constant):
            return self.rng(op)
        return None if op.place.projection else self.ranges.get(op.place.local)

