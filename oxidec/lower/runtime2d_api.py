"""`DisjointSlice<T, Runtime2DIndex>` (rows: device_api/runtime2d.py), a struct of the 1-D
slice (field 0) and its row width (field 1):

    index_2d_runtime(&s)  ok = width != 0 & col < width & ntid.z == 1 & nctaid.z == 1
                          Some((row, col)) if ok  (row, col: the global y and x index)
    s.get_mut(i)          k = i.row * width + i.col; Some(&mut s.0[k]) if i.col < width & k < len
    s.row_width()         s.1
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M


class Runtime2DLowering:

    def runtime2d_receiver(self, expr: ast.Expr) -> M.Place:
        """The slice struct an expression names, through any references to it."""
        place = self.lower_place(expr)
        ty = self.ty(expr)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        return place

    def _width(self, slice_place: M.Place, span) -> M.Operand:
        w = self.to_temp(M.Use(M.Copy(slice_place.project(M.Field(1)))), T.U32, span)
        return self.to_temp(M.Cast(w, T.USIZE), T.USIZE, span)

    def api_row_width(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        place = self.runtime2d_receiver(e.receiver)
        return self.to_temp(M.Use(M.Copy(place.project(M.Field(1)))), T.U32, e.span)

    def api_index_2d_runtime(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        arg = e.args[0]
        ref = self.operand_local(self.lower_expr(arg), self.ty(arg), arg.span)
        place, ty = M.Place(ref), self.ty(arg)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        width = self._width(place, span)
        row, col = self.global_index("y", span), self.global_index("x", span)
        ok = self.to_temp(M.BinaryOp("lt", col, width), T.BOOL, span)  # width 0: never
        for reg in ("ntid.z", "nctaid.z"):
            flat = self.to_temp(M.BinaryOp("eq", self.special(reg, span), M.Constant(1, T.U32)),
                                T.BOOL, span)
            ok = self.to_temp(M.BinaryOp("bitand", ok, flat), T.BOOL, span)
        ty = self.ty(e)
        witness = self.to_temp(M.Aggregate(T.THREAD_INDEX_2D, (row, col)), T.THREAD_INDEX_2D,
                               span)
        return self.to_temp(M.Aggregate(ty, (ok, witness)), ty, span)

    def api_runtime2d_get_mut(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        place = self.runtime2d_receiver(e.receiver)
        data = place.project(M.Field(0))
        w = self.operand_local(self.lower_expr(e.args[0]), T.THREAD_INDEX_2D, e.args[0].span)
        row = self.to_temp(M.Use(M.Copy(M.Place(w, (M.Field(0),)))), T.USIZE, span)
        col = self.to_temp(M.Use(M.Copy(M.Place(w, (M.Field(1),)))), T.USIZE, span)
        width = self._width(place, span)
        length = self.to_temp(M.Len(data), T.USIZE, e.receiver.span)
        k = self.to_temp(M.BinaryOp("add", self.to_temp(M.BinaryOp("mul", row, width), T.USIZE,
                                                        span), col), T.USIZE, span)
        in_row = self.to_temp(M.BinaryOp("lt", col, width), T.BOOL, span)
        in_len = self.to_temp(M.BinaryOp("lt", k, length), T.BOOL, span)
        ok = self.to_temp(M.BinaryOp("bitand", in_row, in_len), T.BOOL, span)
        i = self.operand_local(k, T.USIZE, span)
        ty = self.ty(e)
        ref = self.to_temp(M.Ref(data.project(M.Deref(), M.Index(i)), True), ty.args[0],
                           e.receiver.span)
        return self.to_temp(M.Aggregate(ty, (ok, ref)), ty, span)

    def api_runtime2d_from_raw_parts(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`DisjointSlice::from_raw_parts_with_space(ptr, len, row_width)`."""
        ptr, n, width = self.lower_in_order(e.args)
        ty = self.ty(e)
        slice_ty = ty.fields[0][1]
        data = self.to_temp(M.Intrinsic("slice_from_parts", (ptr, n)), slice_ty, e.span)
        return self.to_temp(M.Aggregate(ty, (data, width)), ty, e.span)

    def api_thread_index_is_valid(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        """A 1-D witness is invalid as usize::MAX (lower/calls.py index_1d)."""
        place = self.runtime2d_receiver(e.receiver)
        idx = self.to_temp(M.Use(M.Copy(place)), T.USIZE, e.span)
        return self.to_temp(M.BinaryOp("ne", idx, M.Constant(T.int_range(T.USIZE)[1],
                                                              T.USIZE)), T.BOOL, e.span)

    def api_witness2d_field(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        place = self.runtime2d_receiver(e.receiver)
        field = 1 if api.name == "col" else 0
        return self.to_temp(M.Use(M.Copy(place.project(M.Field(field)))), T.USIZE, e.span)
