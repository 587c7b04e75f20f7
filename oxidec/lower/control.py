"""Branches and jumps: `if`, conditions with `&&`/`||`/`let`, `while`, `loop`, `break`,
`continue`, `return`.

    if_expr: "if" cond block ("else" (if_expr | block))?
    while_expr: label? "while" cond block
    loop_expr: label? "loop" block
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..mir import syntax as M
from .builder import UNIT_CONST, LoopScope

class ControlLowering:

    # -- control flow ---------------------------------------------------------
    def lower_if_expr(self, e: ast.IfExpr) -> M.Operand:
        ty = self.ty(e)
        has_value = e.else_ is not None and not isinstance(ty, (T.UnitTy, T.NeverTy))
        result = M.Place(self.temp(ty, e.span)) if has_value else None
        then_bb, else_bb, join = self.new_block(), self.new_block(), self.new_block()
        self.lower_cond(e.cond, then_bb, else_bb)
        self.cur = then_bb
        value = self.lower_block(e.then)
        if result is not None and self.cur is not None:
            self.assign(result, M.Use(value), e.then.span)
        self.goto(join, e.span)
        self.cur = else_bb
        if e.else_ is not None:
            value = self.lower_expr(e.else_)
            if result is not None and self.cur is not None:
                self.assign(result, M.Use(value), e.else_.span)
        self.goto(join, e.span)
        self.cur = join
        return self.read(result, ty) if result is not None else UNIT_CONST

    def lower_while_expr(self, e: ast.WhileExpr) -> M.Operand:
        head, body, exit_bb = self.new_block(), self.new_block(), self.new_block()
        self.goto(head, e.span)
        self.cur = head
        self.lower_cond(e.cond, body, exit_bb)
        self.cur = body
        self.loops.append(LoopScope(e.label, exit_bb, head, None))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(head, e.span)
        self.cur = exit_bb
        return UNIT_CONST

    def lower_loop_expr(self, e: ast.LoopExpr) -> M.Operand:
        ty = self.ty(e)
        result = M.Place(self.temp(ty, e.span)) if not isinstance(ty, (T.UnitTy, T.NeverTy)) \
            else None
        body, exit_bb = self.new_block(), self.new_block()
        self.goto(body, e.span)
        self.cur = body
        self.loops.append(LoopScope(e.label, exit_bb, body, result))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(body, e.span)
        self.cur = exit_bb
        return self.read(result, ty) if result is not None else UNIT_CONST

    def find_loop(self, label: str | None, want_continue: bool) -> LoopScope | None:
        for scope in reversed(self.loops):
            if want_continue and scope.continue_block is None:
                continue
            if label is None and scope.continue_block is None and not want_continue:
                continue  # unlabelled break skips labelled blocks
            if label is None or scope.label == label:
                return scope
        return None

    def lower_break_expr(self, e: ast.BreakExpr) -> M.Operand:
        scope = self.find_loop(e.label, False)
        value = self.lower_expr(e.value) if e.value is not None else None
        if scope is None:
            return UNIT_CONST
        if value is not None and scope.result is not None:
            self.assign(scope.result, M.Use(value), e.span)
        self.goto(scope.break_block, e.span)
        return UNIT_CONST

    def lower_continue_expr(self, e: ast.ContinueExpr) -> M.Operand:
        scope = self.find_loop(e.label, True)
        if scope is not None:
            self.goto(scope.continue_block, e.span)
        return UNIT_CONST

    def lower_return_expr(self, e: ast.ReturnExpr) -> M.Operand:
        if self.inline_frames:  # returning from a function inlined here (lower/closures.py)
            result, join = self.inline_frames[-1]
            if e.value is not None:
                value = self.lower_expr(e.value)
                if self.cur is not None:
                    self.assign(M.Place(result), M.Use(value), e.span)
            self.goto(join, e.span)
            return UNIT_CONST
        if e.value is not None:
            value = self.lower_expr(e.value)
            if self.cur is not None:
                self.assign(M.Place(self.user_ret), M.Use(value), e.span)
        self.goto(self.get_return_block(), e.span)
        return UNIT_CONST

    def lower_let_expr(self, e: ast.LetExpr) -> M.Operand:
        return UNIT_CONST  # reported by typeck
