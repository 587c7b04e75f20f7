"""Blocks and statements.

    block: "{" stmt* expr? "}"
    stmt: let_stmt | item | expr_stmt | ";"
    let_stmt: "let" pattern (":" type)? ("=" expr ("else" block)?)? ";"
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..diagnostics import Label
from .results import (ConstRes, StaticRes, describe)


class StmtMixin:

    # -- blocks and statements --------------------------------------------
    def check_block(self, block: ast.Block, expected: T.Ty | None) -> T.Ty:
        scope = self.items.scopes.get(id(block))  # the block declares items
        if scope is not None:
            saved = self.module, self.consts.module
            self.module = self.consts.module = scope
            try:
                return self._check_block(block, expected)
            finally:
                self.module, self.consts.module = saved
        return self._check_block(block, expected)

    def _check_block(self, block: ast.Block, expected: T.Ty | None) -> T.Ty:
        self.ctx.scopes.append({})
        diverges = False
        for stmt in block.stmts:
            if isinstance(stmt, ast.ItemStmt):
                self.check_item_stmt(stmt.item)
        for stmt in block.stmts:
            if self.check_stmt(stmt):
                diverges = True
        if block.tail is not None:
            ty = self.check_expr(block.tail, expected)
        else:
            ty = T.NEVER if diverges else T.UNIT
        self.ctx.scopes.pop()
        return ty

    def check_item_stmt(self, item: ast.Item) -> None:
        scope = self.ctx.scopes[-1]
        if isinstance(item, ast.ConstItem):
            if self.inline_const(item) is not None:
                scope[item.name] = item  # checked; lowered at each use
                return
            value = self.consts.eval_item(item)
            if value is not None:
                scope[item.name] = ConstRes(value)
        elif isinstance(item, ast.StaticItem):
            self.declare_static(item, scope)
        elif not isinstance(item, (ast.UseItem, ast.FnItem, ast.HostFn, ast.StructItem,
                                   ast.ImplItem, ast.TraitItem, ast.TraitImplItem)):
            # those are the resolver's
            self.unsupported(item.span, "items of this kind inside functions")

    def declare_static(self, item: ast.StaticItem, scope: dict) -> None:
        mangled = f"{self.ctx.sig.name}${item.name}" if self.ctx else item.name
        res = self.shared_static(item, mangled)
        if res is not None:
            scope[item.name] = res

    def shared_static(self, item: ast.StaticItem, mangled: str) -> StaticRes | None:
        """`static mut X: SharedArray<T, N[, ALIGN]> = SharedArray::UNINIT;` in a function or
        at module level: one copy per block (a module-level one is shared by the kernels of
        the program that use it, each block with its own)."""
        ty = self.lower_type(item.ty)
        if not isinstance(ty, T.SharedArrayTy):
            if isinstance(ty, T.ErrorTy):
                return None
            self.unsupported(item.ty.span, "non-`SharedArray` statics",
                             help="use a `const` for a constant value")
            return None
        if not item.mutable:
            self.sink.error("OX0002", "a `SharedArray` static must be `static mut`", item.name_span,
                            "declared without `mut`", help=f"write `static mut {item.name}`")
        init = item.value
        kind = ty.name or "SharedArray"  # `static mut B: Barrier = Barrier::UNINIT;`
        if not (isinstance(init, ast.PathExpr) and init.path.names[-2:] == (kind, "UNINIT")):
            self.sink.error("E0308", f"a `{kind}` must be initialised with `{kind}::UNINIT`",
                            init.span, f"expected `{kind}::UNINIT`")
        res = StaticRes(mangled, ty, item.mutable, item.name_span)
        self.r.statics[mangled] = res
        return res

    def check_stmt(self, stmt: ast.Stmt) -> bool:
        """Check one statement; True when it always diverges (its type is `!`)."""
        if isinstance(stmt, ast.LetStmt):
            return self.check_let_stmt(stmt)
        if isinstance(stmt, ast.ExprStmt):
            ty = self.check_expr(stmt.expr, None if stmt.semi else T.UNIT)
            ty = self.shallow(ty)
            if not stmt.semi and not isinstance(ty, (T.NeverTy, T.UnitTy, T.ErrorTy)):
                self.coerce(ty, T.UNIT, stmt.expr.span)
            return isinstance(ty, T.NeverTy)
        return False

    def check_let_stmt(self, stmt: ast.LetStmt) -> bool:
        declared = self.lower_type(stmt.ty) if stmt.ty else None
        ty = declared or self.fresh("any")
        diverges = False
        if stmt.init is not None:
            why = Label(stmt.ty.span, "expected due to this") if stmt.ty else None
            init_ty = self.check_expr(stmt.init, ty)
            diverges = isinstance(self.shallow(init_ty), T.NeverTy)
            self.coerce(init_ty, ty, stmt.init.span, why=why)
        if stmt.else_ is not None:  # let-else: refutable, and the `else` block must diverge
            else_ty = self.check_block(stmt.else_, None)
            if not isinstance(self.shallow(else_ty), (T.NeverTy, T.ErrorTy)):
                self.sink.error("E0308", "`else` clause of `let...else` does not diverge",
                                stmt.else_.span, f"expected `!`, found "
                                f"{describe(self.deep(else_ty))}",
                                notes=["expected type `!`", "try adding a diverging expression, "
                                       "such as `return` or `panic!(..)`"],
                                help="... or use `match` instead of `let...else`")
            self.bind_pattern(stmt.pat, ty, irrefutable=False, let_span=stmt.span)
            return diverges
        self.bind_pattern(stmt.pat, ty, irrefutable=True, let_span=stmt.span)
        return diverges
