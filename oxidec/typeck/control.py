"""Control flow: `if`, `while`, `loop`, `for`, `break`, `continue`, `return`, `let` in conditions.

    if_expr: "if" cond block ("else" (if_expr | block))?
    while_expr: label? "while" cond block
    loop_expr: label? "loop" block
    for_expr: label? "for" pattern "in" expr block
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..diagnostics import Label
from ..span import Span
from .results import (Loop,
                      describe)


class ControlMixin:

    # -- control flow ------------------------------------------------------
    def check_if_expr(self, e: ast.IfExpr, expected):
        self.ctx.scopes.append({})
        self.check_cond(e.cond)
        then_ty = self.check_block(e.then, expected if e.else_ is not None else T.UNIT)
        self.ctx.scopes.pop()
        if e.else_ is None:
            t = self.shallow(then_ty)
            if not isinstance(t, (T.UnitTy, T.NeverTy, T.ErrorTy)):
                self.sink.error("E0317", "`if` may be missing an `else` clause", e.span,
                                f"expected `()`, found {describe(self.deep(t))}",
                                notes=["`if` expressions without `else` evaluate to `()`"],
                                help="consider adding an `else` block that evaluates to the "
                                     "expected type")
            return T.UNIT
        else_ty = self.check_expr(e.else_, expected if expected is not None else then_ty)
        if isinstance(self.shallow(then_ty), T.NeverTy):
            return else_ty
        if isinstance(self.shallow(else_ty), T.NeverTy):
            return then_ty
        if not self.unify(then_ty, else_ty):
            span = e.else_.block.tail.span if isinstance(e.else_, ast.BlockExpr) and \
                e.else_.block.tail is not None else e.else_.span
            self.sink.error("E0308", "`if` and `else` have incompatible types", span,
                            f"expected {describe(self.deep(then_ty))}, found "
                            f"{describe(self.deep(else_ty))}",
                            labels=[Label((e.then.tail or e.then).span,
                                          "expected because of this")])
            return T.ERROR
        return then_ty

    def check_while_expr(self, e: ast.WhileExpr, expected):
        self.ctx.scopes.append({})
        self.check_cond(e.cond)
        self.ctx.loops.append(Loop(e.label, False))
        self.check_block(e.body, T.UNIT)
        self.ctx.loops.pop()
        self.ctx.scopes.pop()
        return T.UNIT

    def check_loop_expr(self, e: ast.LoopExpr, expected):
        loop = Loop(e.label, True)
        self.ctx.loops.append(loop)
        self.check_block(e.body, T.UNIT)
        self.ctx.loops.pop()
        return loop.break_ty if loop.break_ty is not None else T.NEVER

    def check_for_expr(self, e: ast.ForExpr, expected):
        it = self.shallow(self.check_expr(e.iter))
        if isinstance(it, T.RangeTy):
            elem = it.elem
        elif isinstance(it, T.ArrayTy):
            elem = it.elem
        elif self.iterable_item(it) is not None:  # iterator chains, `&array`, slices
            elem = self.iterable_item(it)
        else:
            if not isinstance(it, T.ErrorTy):
                self.sink.error("E0277", f"`{self.deep(it)}` is not an iterator", e.iter.span,
                                "not an iterator",
                                help="iterate over a range `a..b`, `(a..b).step_by(s)` or an "
                                     "array")
            elem = T.ERROR
        self.ctx.scopes.append({})
        self.bind_pattern(e.pat, elem, irrefutable=True)
        self.ctx.loops.append(Loop(e.label, False))
        self.check_block(e.body, T.UNIT)
        self.ctx.loops.pop()
        self.ctx.scopes.pop()
        for a in e.attrs:
            if a.name != "unroll":
                self.sink.error("OX0003", f"attribute `#[{a.name}]` is not allowed on a loop",
                                a.span, "not allowed here")
            elif a.args and len(a.args) == 1 and not isinstance(a.args[0], ast.LitExpr):
                n = self.const_u32_arg(a.args[0])  # `#[unroll(P::UNROLL)]`: lower/loops.py
                if n is not None:
                    self.r.unroll_counts[(self.ctx.sig.name, id(a))] = n
        return T.UNIT

    def find_loop(self, label: str | None, span: Span, what: str) -> Loop | None:
        for loop in reversed(self.ctx.loops):
            if label is None or loop.label == label:
                return loop
        if label is not None:
            self.sink.error("E0426", f"use of undeclared label `'{label}`", span,
                            f"undeclared label `'{label}`")
        else:
            self.sink.error("E0268", f"`{what}` outside of a loop", span,
                            f"cannot `{what}` outside of a loop")
        return None

    def check_break_expr(self, e: ast.BreakExpr, expected):
        loop = self.find_loop(e.label, e.span, "break")
        if e.value is not None:
            if loop is not None and not loop.is_loop:
                self.sink.error("E0571", "`break` with value from a `while` or `for` loop",
                                e.span, "can only break with a value inside `loop`")
                self.check_expr(e.value)
            elif loop is not None:
                if loop.break_ty is None:
                    loop.break_ty = self.check_expr(e.value)
                else:
                    self.coerce(self.check_expr(e.value, loop.break_ty), loop.break_ty,
                                e.value.span)
        elif loop is not None and loop.is_loop:
            if loop.break_ty is None:
                loop.break_ty = T.UNIT
            elif not self.unify(loop.break_ty, T.UNIT):
                self.mismatch(loop.break_ty, T.UNIT, e.span)
        return T.NEVER

    def check_continue_expr(self, e: ast.ContinueExpr, expected):
        self.find_loop(e.label, e.span, "continue")
        return T.NEVER

    def check_return_expr(self, e: ast.ReturnExpr, expected):
        ret = self.ctx.sig.ret
        if e.value is not None:
            self.coerce(self.check_expr(e.value, ret), ret, e.value.span)
        elif ret != T.UNIT and not isinstance(ret, T.ErrorTy):
            self.sink.error("E0069", "`return;` in a function whose return type is not `()`",
                            e.span, f"return type is `{ret}`")
        return T.NEVER

    def check_let_expr(self, e: ast.LetExpr, expected):
        self.sink.error("OX0002", "`let` expressions are only supported directly in `if` and "
                        "`while` conditions", e.span, "not supported here")
        return T.ERROR
