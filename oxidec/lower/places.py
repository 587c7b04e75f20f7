"""Place expressions: locals with field, index (bounds-checked) and deref projections.

    place: path_expr | field_expr | index_expr | "*" expr
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..typeck import LocalRes, StaticRes
from .builder import UNIT_CONST

class PlaceLowering:

    # -- places ---------------------------------------------------------------
    def lower_place(self, e: ast.Expr) -> M.Place:
        self.note_unsafe_use(e)
        if isinstance(e, ast.PathExpr):
            res = self.r.res.get(e)
            if isinstance(res, LocalRes):
                return self.var_place(res.var)
            if isinstance(res, StaticRes):
                ref_ty = T.RefTy(res.ty, res.mutable)
                t = self.temp(ref_ty, e.span)
                self.assign(M.Place(t), M.StaticRef(res.name), e.span)
                return M.Place(t, (M.Deref(),))
        if isinstance(e, ast.UnaryExpr) and e.op == "*" and self.ref_alias(e.operand):
            return self.ref_alias(e.operand)
        if isinstance(e, ast.UnaryExpr) and e.op == "*":
            inner = self.ty(e.operand)
            if isinstance(inner, (T.RefTy, T.PtrTy)):
                op = self.lower_expr(e.operand)
                return M.Place(self.operand_local(op, inner, e.span), (M.Deref(),))
        if isinstance(e, ast.FieldExpr) and e in self.union_view_temps:
            return M.Place(self.union_view_temps[e])  # a part of it written (unions.py)
        if isinstance(e, ast.FieldExpr) and e in self.r.union_views:
            # read through (`u.parts[1]`): the view's value in a temporary (writes through a
            # view are refused before they get here: lower/unions.py)
            return M.Place(self.operand_local(self.lower_expr(e), self.ty(e), e.span))
        if isinstance(e, ast.FieldExpr):
            base = self.lower_place(e.base)
            bty = self.ty(e.base)
            while isinstance(bty, T.RefTy):
                base = base.project(M.Deref())
                bty = bty.inner
            if isinstance(bty, T.StructTy):
                return base.project(M.Field(bty.field_index(e.name)))
            if isinstance(bty, T.TupleTy) and e.name.isdigit():
                return base.project(M.Field(int(e.name)))
            # an error type was reported where it arose: keep lowering on a dummy place
            op = UNIT_CONST if isinstance(bty, T.ErrorTy) else \
                self.unsupported(e.span, f"field `{e.name}` of `{bty}` is")
            return M.Place(self.operand_local(op, T.UNIT, e.span))
        if isinstance(e, ast.IndexExpr):
            return self.lower_index_place(e)
        # Any other expression: evaluate into a temporary and use that.
        op = self.lower_expr(e)
        return M.Place(self.operand_local(op, self.ty(e), e.span))

    def lower_index_place(self, e: ast.IndexExpr) -> M.Place:
        if e in self.r.overloads:  # `v[i]` through `impl Index` (trait_calls.py)
            return self.inline_index_place(e)
        if isinstance(e.index, ast.RangeExpr):  # `s[a..b]` as a place: `*(&s[a..b])`
            return M.Place(self.lower_subslice(e, False), (M.Deref(),))
        base = self.lower_place(e.base)
        bty = self.ty(e.base)
        if T.cusimd_parts(bty) is not None:  # `v[i]` of a CuSimd: its array's element
            base, bty = base.project(M.Field(0)), bty.fields[0][1]
        index = self.lower_expr(e.index)
        idx = self.operand_local(index, T.USIZE, e.index.span)
        if isinstance(bty, T.RefTy) and isinstance(bty.inner, T.SliceTy):
            length = self.to_temp(M.Len(base), T.USIZE, e.span)
            base = base.project(M.Deref())
        elif isinstance(bty, T.RefTy) and isinstance(bty.inner, T.ArrayTy):
            length = M.Constant(bty.inner.length, T.USIZE)
            base = base.project(M.Deref())
        elif isinstance(bty, (T.ArrayTy, T.SharedArrayTy)):
            length = M.Constant(bty.length, T.USIZE)
        else:
            length = M.Constant(0, T.USIZE)
        if self.checked:
            if isinstance(bty, T.ArrayTy) or isinstance(bty, T.RefTy) \
                    and isinstance(bty.inner, T.ArrayTy):
                self.lint_index(index, length.value, e.span)  # panic_lint.py
            ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(idx)), length), T.BOOL, e.span)
            self.check(ok, "index out of bounds", e.span)
        return base.project(M.Index(idx))
