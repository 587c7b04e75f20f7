"""Blocks and statements; binding scopes (`StorageLive` where a binding starts, `StorageDead`
where its block ends, for the borrow checker).

    block: "{" stmt* expr? "}"
    let_stmt: "let" pattern (":" type)? ("=" expr)? ";"
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from ..typeck import Var
from .builder import UNIT_CONST
from .lints import level_of

class StmtLowering:

    # -- statements ---------------------------------------------------------
    def lower_block(self, block: ast.Block) -> M.Operand:
        mark = len(self.scope_vars)
        for stmt in block.stmts:
            self.lower_stmt(stmt)
        value = self.lower_expr(block.tail) if block.tail is not None else UNIT_CONST
        # The block's value may still be read after this point (`{ let v = ..; v }`).
        keep = value.place.local if isinstance(value, (M.Copy, M.Move)) else None
        self.end_scope(mark, Span(block.span.file, block.span.end - 1, block.span.end), keep)
        return value

    def note_binding(self, local: int) -> None:
        # The binding starts (again, in a loop) here.
        self.push(M.StorageLive(local, self.locals[local].span))
        self.scope_vars.append(local)

    def end_scope(self, mark: int, brace: Span, keep: int | None = None) -> None:
        # The bindings made since `mark` go out of scope here.
        if self.cur is not None:
            for local in self.scope_vars[mark:]:
                if local != keep:
                    self.push(M.StorageDead(local, brace))
        del self.scope_vars[mark:]

    def lower_stmt(self, stmt: ast.Stmt) -> None:
        attrs = getattr(stmt, "attrs", ())
        if attrs:  # `#[allow(arithmetic_overflow)] let x = ..;`: levels for this statement
            outer, self.lint_levels = self.lint_levels, level_of(attrs, self.lint_levels)
            try:
                self.lower_stmt_kind(stmt)
            finally:
                self.lint_levels = outer
        else:
            self.lower_stmt_kind(stmt)

    def lower_stmt_kind(self, stmt: ast.Stmt) -> None:
        if isinstance(stmt, ast.LetStmt):
            self.lower_let_stmt(stmt)
        elif isinstance(stmt, ast.ExprStmt):
            self.lower_expr(stmt.expr)
        # ItemStmt: consts were folded by typeck, statics are program-level.

    def lower_let_stmt(self, stmt: ast.LetStmt) -> None:
        # let_stmt: "let" pattern (":" type)? ("=" expr)? ";"
        if stmt.init is None:
            self.declare_pattern(stmt.pat)
            return
        if isinstance(self.ty(stmt.init), T.ClosureTy):  # lower/closures.py
            self.lower_closure_let(stmt)
            return
        value = self.lower_expr(stmt.init)
        if stmt.else_ is not None:  # let-else: test, the else block on failure, then bind
            ty = self.ty(stmt.init)
            place = M.Place(self.operand_local(value, ty, stmt.span))
            fail, ok = self.new_block(), self.new_block()
            self.test_pattern(stmt.pat, place, fail, stmt.span)
            self.goto(ok, stmt.span)
            self.cur = fail
            self.lower_block(stmt.else_)
            if self.cur is not None:
                self.terminate(M.Unreachable(stmt.else_.span))
            self.cur = ok
            self.bind_place(stmt.pat, place, stmt.span)
            return
        self.bind_pattern(stmt.pat, value, self.ty(stmt.init), stmt.span)

    def declare_pattern(self, pat: ast.Pattern) -> None:
        if isinstance(pat, ast.IdentPat):
            self.note_binding(self.local_for(self.r.pat_var[pat]))
        elif isinstance(pat, ast.TuplePat):
            for p in pat.elems:
                self.declare_pattern(p)

    def local_for(self, var: Var) -> int:
        local = self.var_local.get(id(var))
        if local is None:
            local = self.new_local(var.ty, var.span, var.name, var.mutable)
            self.var_local[id(var)] = local
        return local
