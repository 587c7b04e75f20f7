"""rustc's `arithmetic_overflow` lint (deny by default): an integer `+ - *`, a shift or a
negation whose operands are known while lowering and whose result overflows is an error,
as rustc's known-panics lint makes it:

    let x: u8 = 255 + 1;     error: this arithmetic operation will overflow
                             attempt to compute `u8::MAX + 1_u8`, which would overflow
    let y = 1i32 << 40;      attempt to shift left by `40_i32`, which would overflow

Known values are propagated as rustc's lint does, through locals in straight-line code:
constants, `const` items, and locals assigned a known value. A mutable local or a
temporary is known only within the block that assigned it (a join of two branches
forgets it); an immutable binding assigned once is known wherever it is read, and one
assigned on two paths (`let x; if c { x = 1 } else { x = 2 }`) is not known at all.
The copies of an unrolled loop's variable are not known: Rust sees a loop, not copies.
Like rustc, the lint skips code that a known condition makes unreachable
(`if (0x4000u16 & u16::MAX) != 16384 { 8i64 - i64::MAX }` is accepted): a block is linted
only when some reachable block jumps to it along an edge its known condition can take.
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M
from ..mir.cfg import successors
from ..span import Span

LINT = "arithmetic_overflow"

_SYMBOL = {"add": "+", "sub": "-", "mul": "*"}
_COMPARE = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
            "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


class OverflowLint:
    def init_overflow_lint(self) -> None:
        self.known_here: dict[int, int] = {}  # local -> value, in block `known_block`
        self.known_block: int | None = None
        self.known_once: dict[int, int] = {}  # immutable bindings assigned once
        self.not_known: set[int] = set()  # borrowed, or assigned on two paths
        self.lint_levels: dict[str, str] = {}
        self.lint_noted: set[str] = set()  # lints whose "on by default" note was given
        self.reachable: set[int] = {0}  # blocks some reachable block may jump to

    def note_terminator(self, block: int, term) -> None:
        """Called for every terminator: its targets are reachable if `block` is, except the
        arms of a switch on a known value that the value does not take."""
        if block not in self.reachable:
            return
        targets = successors(term)
        if isinstance(term, M.SwitchInt):
            v = self.known_value(term.discr)
            if v is not None:
                targets = (term.targets[term.values.index(v)] if v in term.values
                           else term.otherwise,)
        self.reachable.update(targets)

    # -- propagation ------------------------------------------------------------
    def _here(self) -> dict[int, int]:
        if self.known_block != self.cur:
            self.known_here.clear()
            self.known_block = self.cur
        return self.known_here

    def known_value(self, op: M.Operand) -> int | None:
        if isinstance(op, M.Constant):
            v = op.value
            if isinstance(op.ty, T.BoolTy) and isinstance(v, bool):
                return int(v)
            return v if isinstance(v, int) and not isinstance(v, bool) and \
                isinstance(op.ty, T.IntTy) else None
        if isinstance(op, (M.Copy, M.Move)) and not op.place.projection:
            local = op.place.local
            if local in self.not_known:
                return None
            if local in self.known_once:
                return self.known_once[local]
            return self._here().get(local)
        return None

    def note_assign(self, place: M.Place, rvalue) -> None:
        """Called for every assignment lowering pushes."""
        if isinstance(rvalue, M.Ref):
            self.not_known.add(rvalue.place.local)  # written through the reference later
        local = place.local
        here = self._here()
        if place.projection or not isinstance(self.locals[local].ty, (T.IntTy, T.BoolTy)):
            here.pop(local, None)
            return
        value = self._evaluate(rvalue, self.locals[local].ty)
        decl = self.locals[local]
        if not decl.mutable and decl.name is not None:
            if local in self.known_once or value is None:
                self.not_known.add(local)  # assigned twice (on two paths), or unknown
                self.known_once.pop(local, None)
            elif local not in self.not_known:
                self.known_once[local] = value
            return
        if value is None:
            here.pop(local, None)
        else:
            here[local] = value

    def join_known(self, local: int, arm_values: list) -> None:
        """At a join just entered: `local` is known when every reachable arm left it known
        and equal."""
        here = self._here()
        if arm_values and None not in arm_values and len(set(arm_values)) == 1:
            here[local] = arm_values[0]

    def forget_known(self, local: int) -> None:
        """An unrolled loop's variable: a constant in each copy, a variable to Rust."""
        self.not_known.add(local)
        self.known_once.pop(local, None)

    def _evaluate(self, rv, ty: T.Ty) -> int | None:
        """The value of an rvalue of an integer or bool type (bools as 0/1), if known."""
        if isinstance(rv, M.Use):
            return self.known_value(rv.operand)
        if isinstance(rv, M.BinaryOp) and rv.op in _COMPARE:
            a, b = self.known_value(rv.lhs), self.known_value(rv.rhs)
            return None if a is None or b is None else int(_COMPARE[rv.op](a, b))
        if isinstance(ty, T.BoolTy) and isinstance(rv, M.UnaryOp) and rv.op == "not":
            v = self.known_value(rv.operand)
            return None if v is None else 1 - v
        if not isinstance(ty, T.IntTy):
            if isinstance(rv, M.BinaryOp) and rv.op in ("bitand", "bitor", "bitxor"):
                a, b = self.known_value(rv.lhs), self.known_value(rv.rhs)
                if a is not None and b is not None:
                    return {"bitand": a & b, "bitor": a | b, "bitxor": a ^ b}[rv.op]
            return None
        if isinstance(rv, M.Cast) and isinstance(rv.ty, T.IntTy):
            v = self.known_value(rv.operand)
            return None if v is None else T.wrap_int(v, rv.ty)
        if isinstance(rv, M.UnaryOp) and rv.op in ("neg", "not"):
            v = self.known_value(rv.operand)
            if v is None:
                return None
            return T.wrap_int(-v if rv.op == "neg" else ~v, ty)
        if isinstance(rv, M.BinaryOp) and rv.op in ("add", "sub", "mul", "bitand", "bitor",
                                                       "bitxor"):
            a, b = self.known_value(rv.lhs), self.known_value(rv.rhs)
            if a is None or b is None:
                return None
            exact = {"add": a + b, "sub": a - b, "mul": a * b, "bitand": a & b,
                     "bitor": a | b, "bitxor": a ^ b}[rv.op]
            lo, hi = T.int_range(ty)
            return exact if lo <= exact <= hi else None
        return None

    # -- the lint ---------------------------------------------------------------
    def lint_overflow(self, op: str, lhs: M.Operand, rhs: M.Operand | None, ty: T.Ty,
                      span: Span) -> None:
        """`op` is a MIR binary op name, or "neg" (rhs None)."""
        level = self.lint_levels.get(LINT, "deny")
        if level == "allow" or not isinstance(ty, T.IntTy) or self.cur not in self.reachable:
            return
        a = self.known_value(lhs)
        if op == "neg":
            if a is None or not ty.signed or a != T.int_range(ty)[0]:
                return
            what = f"attempt to negate `{_show(a, ty)}`, which would overflow"
        elif op in ("shl", "shr"):
            b = self.known_value(rhs)
            rty = self._operand_ty(rhs)
            if b is None or not isinstance(rty, T.IntTy) or 0 <= b < ty.bits:
                return
            side = "left" if op == "shl" else "right"
            what = f"attempt to shift {side} by `{_show(b, rty, named=False)}`, which would overflow"
        elif op in _SYMBOL:
            b = self.known_value(rhs)
            if a is None or b is None:
                return
            exact = {"add": a + b, "sub": a - b, "mul": a * b}[op]
            lo, hi = T.int_range(ty)
            if lo <= exact <= hi:
                return
            what = (f"attempt to compute `{_show(a, ty)} {_SYMBOL[op]} {_show(b, ty)}`, "
                    "which would overflow")
        else:
            return
        self.report_lint(LINT, level, "this arithmetic operation will overflow", span, what)

    def report_lint(self, lint: str, level: str, message: str, span: Span, what: str) -> None:
        """A deny-by-default lint at `level` ("deny" or "warn"), with rustc's note the first
        time the crate meets it at its default level."""
        notes = []
        if lint not in self.lint_noted and lint not in self.lint_levels:
            notes = [f"`#[deny({lint})]` on by default"]
            self.lint_noted.add(lint)
        emit = self.sink.warning if level == "warn" else self.sink.error
        emit(None, message, span, what, notes=notes)

    def _operand_ty(self, op: M.Operand) -> T.Ty:
        if isinstance(op, M.Constant):
            return op.ty
        if isinstance(op, (M.Copy, M.Move)) and not op.place.projection:
            return self.locals[op.place.local].ty
        return T.ERROR


def _show(v: int, ty: T.IntTy, named: bool = True) -> str:
    """As rustc prints a value in the lint: `u8::MAX`, `i32::MIN`, else `200_u8`."""
    lo, hi = T.int_range(ty)
    if named and v == hi:
        return f"{ty}::MAX"
    if named and ty.signed and v == lo:
        return f"{ty}::MIN"
    return f"{v}_{ty}"
