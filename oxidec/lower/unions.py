"""Union values (typeck/unions.py): a struct holding the bytes as an array; a view is
read and written as `transmute` takes values apart and assembles them (transmute.py).

    U { real: x }        _u = U { $bytes: [bits(x)] }          (bytes past the view: zero)
    u.word               assemble::<u32>(leaves of _u.$bytes)
    u.half = v           _u.$bytes = assemble(leaves of v, then _u's bytes past the view)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import layout
from ..mir import syntax as M
from .builder import UNIT_CONST
from .transmute import leaves


class UnionLowering:

    def words_of(self, value: M.Operand, ty: T.Ty, span, skip_below: int = 0) -> list:
        """(offset, size, u64 bits) of the scalars of `value`, those at `skip_below` bytes
        and up."""
        local = self.operand_local(value, ty, span)
        out = []
        for projs, leaf, off in leaves(ty):
            if off < skip_below:
                continue
            v = self.read(M.Place(local, projs), leaf)
            out.append((off, layout.size_of(leaf), self.bits_of(v, leaf, span)))
        return out

    def frozen_union_root(self, e: ast.Expr) -> bool:
        """Whether the variable place `e` lies in is neither `mut` nor reached through a
        `&mut` or raw pointer: nothing can write it."""
        node = e
        while isinstance(node, (ast.FieldExpr, ast.IndexExpr)):
            node = node.base
        res = self.r.res.get(node) if isinstance(node, ast.PathExpr) else None
        var = getattr(res, "var", None)
        if var is None or var.mutable:
            return False
        ty = var.ty
        while isinstance(ty, T.RefTy):
            if ty.mutable:
                return False
            ty = ty.inner
        return not isinstance(ty, T.PtrTy)

    def through_union_view(self, e: ast.Expr, itself: bool = False) -> bool:
        """Whether place `e` is inside a union's view (`u.parts[1]`, `u.pair.0`), or is
        one when `itself`: such a place has no storage of its own to write or borrow."""
        node = e if itself else getattr(e, "base", None)
        while isinstance(node, (ast.FieldExpr, ast.IndexExpr)):
            if node in self.r.union_views:
                return True
            node = node.base
        return False

    def lower_union_expr(self, e: ast.StructExpr) -> M.Operand:
        ty, _, fty = self.r.union_views[e]
        (_, x), = e.fields
        value = self.lower_expr(x)
        storage = ty.fields[0][1]
        bytes_ = self.assemble(storage, 0, self.words_of(value, fty, e.span), e.span)
        return self.to_temp(M.Aggregate(ty, (bytes_,)), ty, e.span)

    def union_storage(self, e: ast.FieldExpr) -> tuple[M.Place, T.Ty]:
        base = self.lower_place(e.base)
        bty = self.ty(e.base)
        while isinstance(bty, T.RefTy):
            base = base.project(M.Deref())
            bty = bty.inner
        return base.project(M.Field(0)), bty.fields[0][1]

    def lower_union_read(self, e: ast.FieldExpr) -> M.Operand:
        _, _, fty = self.r.union_views[e]
        place, storage = self.union_storage(e)
        words = self.words_of(self.read(place, storage), storage, e.span)
        return self.assemble(fty, 0, words, e.span)

    def lower_union_write(self, e: ast.AssignExpr) -> M.Operand:
        self.write_view(e.lhs, self.lower_expr(e.rhs), e.span)
        return UNIT_CONST

    def write_view(self, view: ast.FieldExpr, value: M.Operand, span) -> None:
        """The union's bytes: `value`'s for the view, the old ones past it."""
        _, _, fty = self.r.union_views[view]
        place, storage = self.union_storage(view)
        words = self.words_of(value, fty, span)
        old = self.words_of(self.read(place, storage), storage, span,
                            skip_below=layout.size_of(fty))
        self.assign(place, M.Use(self.assemble(storage, 0, words + old, span)), span)

    def lower_union_part_write(self, e: ast.AssignExpr) -> M.Operand:
        """`u.pair.lo = v`: the view read into a temporary, the part written there, the
        view written back."""
        value = self.lower_expr(e.rhs)
        view = e.lhs.base
        while view not in self.r.union_views:
            view = view.base
        _, _, fty = self.r.union_views[view]
        tmp = self.operand_local(self.lower_union_read(view), fty, e.span)
        self.union_view_temps[view] = tmp
        try:
            self.assign(self.lower_place(e.lhs), M.Use(value), e.span)
        finally:
            del self.union_view_temps[view]
        self.write_view(view, self.read(M.Place(tmp), fty), e.span)
        return UNIT_CONST
