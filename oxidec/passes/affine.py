"""Affine index expressions `a * iv + b` of a loop's induction variable, for the loop
passes (bounds_hoist.py, strength_reduce.py).

`AffineAnalysis.of_operand(op, site)` follows the definitions of the locals that `op`
reads back to the induction variable and to loop-invariant values, through `copy`, `Add`,
`Sub`, `Mul` and `Shl` by a constant, all in one unsigned or signed integer type:

    _24 = copy _22;                 // _22 the IV:            1 * iv + 0
    _29 = Mul(copy _24, copy _4);   // _4 invariant:         _4 * iv + 0
    _30 = Add(copy _29, copy _17);  // _17 invariant:        _4 * iv + _17

Integer arithmetic wraps, so these are identities modulo 2^bits whatever the values: the
coefficient and the constant part are invariant expressions (`Inv`) that a pass
materialises in the preheader. Every local on the way must be written once in the
loop (other writes may be outside it: a copy of the loop made by bounds_hoist.py), by a
statement that dominates its use (so within one iteration each read sees the value
written earlier in the same iteration), and every read of the
IV must see the same value of it: the IV's value at the loop header (`phase` "head",
before its update in the iteration) or, for all of them, the value after the update.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mir.syntax import (
    Assign, BinaryOp, Body, Constant, Copy, LocalDecl, Move, Operand, Place, Use,
)
from ..span import Span
from ..types import IntTy, Ty, wrap_int
from ..mir.cfg import Dominators, Loop
from .loops import InductionVar, LoopFacts, Site

# Invariant expressions: ("k", int) a constant, ("v", Operand) an invariant operand,
# ("add" | "sub" | "mul", Inv, Inv).
Inv = tuple

ZERO: Inv = ("k", 0)
ONE: Inv = ("k", 1)


def inv_op(op: str, x: Inv, y: Inv, ty: IntTy) -> Inv:
    """`x op y` with constants folded (wrapping in `ty`) and the identities 0 + y, 1 * y."""
    if x[0] == "k" and y[0] == "k":
        v = {"add": x[1] + y[1], "sub": x[1] - y[1], "mul": x[1] * y[1]}[op]
        return ("k", wrap_int(v, ty))
    if op == "add":
        if x == ZERO:
            return y
        if y == ZERO:
            return x
    if op == "sub" and y == ZERO:
        return x
    if op == "mul":
        if x == ZERO or y == ZERO:
            return ZERO
        if x == ONE:
            return y
        if y == ONE:
            return x
    return (op, x, y)


@dataclass(frozen=True)
class Affine:
    a: Inv  # coefficient of the induction variable
    b: Inv  # the invariant rest


class AffineAnalysis:
    def __init__(self, body: Body, loop: Loop, facts: LoopFacts, iv: InductionVar,
                 doms: Dominators) -> None:
        self.body, self.loop, self.facts, self.iv, self.doms = body, loop, facts, iv, doms
        self.ty = body.locals[iv.local].ty
        self.after = self._after_update()
        self.phases: set[str] = set()  # the phases of the IV reads seen by the last query

    def _after_update(self) -> set[int]:
        """Loop blocks that an iteration can reach after the IV's update without passing
        the header again (the update's own block only if it can run twice)."""
        seen: set[int] = set()
        stack = [s for s in _succ(self.body, self.iv.update.block)]
        while stack:
            b = stack.pop()
            if b in seen or b not in self.loop.blocks or b == self.loop.header:
                continue
            seen.add(b)
            stack.extend(_succ(self.body, b))
        return seen

    def phase(self, site: Site) -> str:
        """"head" when the IV holds its value of this iteration's header test there, "next"
        after its update, "mixed" when a path may see either."""
        u = self.iv.update
        if site.block in self.after:
            if site.block == u.block or not self.doms.dominates(u.block, site.block):
                return "mixed"
            return "next"
        if site.block == u.block:
            return "next" if site.index > u.index else "head"
        return "head"

    def dominates(self, d: Site, u: Site) -> bool:
        if d.block == u.block:
            return d.index < u.index
        return self.doms.dominates(d.block, u.block)

    def query(self, op: Operand, site: Site) -> Affine | None:
        """The operand as `a * iv + b`, with every IV read in one phase (see `phases`)."""
        self.phases = set()
        result = self.of_operand(op, site, 0)
        if result is None or len(self.phases) > 1 or "mixed" in self.phases:
            return None
        return result

    def of_operand(self, op: Operand, site: Site, depth: int) -> Affine | None:
        if depth > 16:
            return None
        if isinstance(op, Constant):
            if not isinstance(op.ty, IntTy) or op.ty != self.ty:
                return None
            return Affine(ZERO, ("k", op.value))
        if not isinstance(op, (Copy, Move)) or op.place.projection:
            return None
        local = op.place.local
        if self.body.locals[local].ty != self.ty:
            return None
        if local == self.iv.local:
            self.phases.add(self.phase(site))
            return Affine(ONE, ZERO)
        if self.facts.invariant_local(local):
            return Affine(ZERO, ("v", Copy(Place(local))))
        # the one write inside the loop, dominating the read: within an iteration it is the
        # last write before the read (a write outside the loop reaches the read only
        # through the header, and from there every path passes this one)
        inside = self.facts.inside_sites(local)
        if len(inside) != 1 or local in self.facts.taken or local <= self.body.arg_count:
            return None
        d = inside[0]
        if not self.dominates(d, site):
            return None
        stmt = self.body.blocks[d.block].statements[d.index] \
            if d.index < len(self.body.blocks[d.block].statements) else None
        if not (isinstance(stmt, Assign) and stmt.place == Place(local)):
            return None
        return self.of_rvalue(stmt.rvalue, d, depth + 1)

    def of_rvalue(self, rv, site: Site, depth: int) -> Affine | None:
        if isinstance(rv, Use):
            return self.of_operand(rv.operand, site, depth)
        if not isinstance(rv, BinaryOp) or rv.op not in ("add", "sub", "mul", "shl"):
            return None
        x = self.of_operand(rv.lhs, site, depth)
        if x is None:
            return None
        if rv.op == "shl":
            c = rv.rhs
            if not (isinstance(c, Constant) and isinstance(c.ty, IntTy)
                    and 0 <= c.value < self.ty.bits):
                return None
            y = Affine(ZERO, ("k", wrap_int(1 << c.value, self.ty)))
            return self._mul(x, y)
        y = self.of_operand(rv.rhs, site, depth)
        if y is None:
            return None
        if rv.op == "mul":
            return self._mul(x, y)
        return Affine(inv_op(rv.op, x.a, y.a, self.ty), inv_op(rv.op, x.b, y.b, self.ty))

    def _mul(self, x: Affine, y: Affine) -> Affine | None:
        if x.a == ZERO:
            x, y = y, x
        if y.a != ZERO:
            return None  # iv * iv is not affine
        return Affine(inv_op("mul", x.a, y.b, self.ty), inv_op("mul", x.b, y.b, self.ty))


def _succ(body: Body, b: int):
    from ..mir.cfg import successors
    return successors(body.blocks[b].terminator)


class Builder:
    """Appends statements computing invariant expressions into a list, with new temporaries."""

    def __init__(self, body: Body, span: Span) -> None:
        self.body, self.span = body, span
        self.stmts: list = []

    def temp(self, ty: Ty) -> int:
        self.body.locals.append(LocalDecl(ty, None, True, self.span))
        return len(self.body.locals) - 1

    def assign(self, rv, ty: Ty) -> Operand:
        t = self.temp(ty)
        self.stmts.append(Assign(Place(t), rv, self.span))
        return Copy(Place(t))

    def inv(self, e: Inv, ty: IntTy) -> Operand:
        if e[0] == "k":
            return Constant(wrap_int(e[1], ty), ty)
        if e[0] == "v":
            return e[1]
        return self.assign(BinaryOp(e[0], self.inv(e[1], ty), self.inv(e[2], ty)), ty)

    def binary(self, op: str, x: Operand, y: Operand, ty: Ty) -> Operand:
        return self.assign(BinaryOp(op, x, y), ty)


__all__ = ["Inv", "ZERO", "ONE", "inv_op", "Affine", "AffineAnalysis", "Builder"]
