"""rustc's `unconditional_panic` lint (deny by default): an operation that panics whenever it
runs, with operands known while lowering, is an error, as rustc's known-panics lint makes it:

    let d = v / 0;        error: this operation will panic at runtime
                          attempt to divide `_` by zero
    let m = i32::MIN / -1;            attempt to compute `i32::MIN / -1_i32`, which would overflow
    let e = a[8];  // a: [u8; 4]      index out of bounds: the length is 4 but the index is 8

Known values and reachability are those of the `arithmetic_overflow` lint (overflow_lint.py):
constants, `const` items and locals in straight-line code, in blocks a known condition does
not skip. Without the lint these programs compile to a trap; rustc refuses them, and so does
oxidec (`#[allow(unconditional_panic)]` keeps the trap).
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M
from ..span import Span
from .overflow_lint import _show

LINT = "unconditional_panic"


class UnconditionalPanicLint:
    def lint_division(self, op: str, lhs: M.Operand, rhs: M.Operand, ty: T.IntTy,
                      span: Span) -> None:
        """An integer `/` or `%` (op "div" or "rem") by a known zero, or of a known MIN by
        a known -1."""
        a, b = self.known_value(lhs), self.known_value(rhs)
        shown = "`_`" if a is None else f"`{_show(a, ty, named=False)}`"
        if b == 0:
            what = (f"attempt to divide {shown} by zero" if op == "div" else
                    f"attempt to calculate the remainder of {shown} with a divisor of zero")
        elif ty.signed and b == -1 and a == T.int_range(ty)[0]:
            sym = "/" if op == "div" else "%"
            what = f"attempt to compute `{_show(a, ty)} {sym} {_show(b, ty, named=False)}`, " \
                "which would overflow"
        else:
            return
        self._panic_lint(what, span)

    def lint_index(self, index: M.Operand, length: int, span: Span) -> None:
        """`a[i]` of an array of `length` elements with a known `i` past the end."""
        i = self.known_value(index)
        if i is not None and i >= length:
            self._panic_lint(f"index out of bounds: the length is {length} but the index is {i}",
                             span)

    def _panic_lint(self, what: str, span: Span) -> None:
        level = self.lint_levels.get(LINT, "deny")
        if level == "allow" or self.cur not in self.reachable:
            return
        self.report_lint(LINT, level, "this operation will panic at runtime", span, what)
