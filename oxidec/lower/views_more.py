"""`cuda_device::view`'s read-only matrix views, checked indices, static views of plain
slices and runtime-width tiles (device_api/views.py; the rest: lower/views_api.py):

    MatrixView32::new(s, stride)   {&s[0], len, stride}
    m.row(r, cols)                 Some(RowView32{&s[r*stride], cols})
                                       if cols <= stride and r*stride + cols <= len
    m.col(c, rows)                 Some(ColView32{&s[c], rows, stride})
                                       if c < stride and (rows == 0 or c + (rows-1)*stride < len)
    row.get(i) / col.get(i)        Some(*elem i) if i < len (the load only then)
    row.zip_exact(col)             Some(ZipView32{row.ptr, col.ptr, len, col.stride})
                                       if the lengths are equal
    RowView32::empty()             {null, 0}
    StaticView32::from_slice(s)    Some(StaticView32{&s[0]}) if s.len() == N
    LocalIndex32::new(k)           Some(LocalIndex32{k}) if k < N;  ::constant::<I>() {I}
    view.at(i) / tile.at(r, c)     {ptr + i} / {ptr + r * stride + c}: no check (the indices
                                   carry theirs)
    s.tile_2d32_rt(coord)          Some(RuntimeTileMut32{&s[r*ROWS*w + c*COLS], w}) if
                                   (c+1)*COLS <= w and the tile's last element < len

Offsets are usize arithmetic on u32 values, so they cannot wrap; `.iter()` of a row or column
and a ZipView32 are indexed iterator sources (lower/iterators.py `view_chain`).
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from .builder import UNIT_CONST


class ViewMoreLowering:

    # -- constructors (CallExpr) ----------------------------------------------------------
    def api_view_new(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        span, ty, name = e.span, self.ty(e), api.name
        if api.owner == "LocalIndex32":
            if name == "constant":
                (i,) = self.r.generic_values.get(e, (0,))
                return self.to_temp(M.Aggregate(ty, (M.Constant(i, T.U32),)), ty, span)
            (raw,) = self.lower_in_order(e.args)
            n = T.local_index_bound(ty.args[0])
            if n is None:  # inference left it open or made it something else
                self._bad_local_index(e, ty.args[0])
                return UNIT_CONST  # (the build stops at the error)
            ok = self._vbin("lt", raw, M.Constant(n, T.U32), span, T.BOOL)
            index = self.to_temp(M.Aggregate(ty.args[0], (raw,)), ty.args[0], span)
            return self.to_temp(M.Aggregate(ty, (ok, index)), ty, span)
        if name == "empty":
            null = M.Constant(0, T.PtrTy(ty.elem, True))
            zeros = (M.Constant(0, T.U32),) * (1 if api.owner == "RowView32" else 2)
            return self.to_temp(M.Aggregate(ty, (null, *zeros)), ty, span)
        mutable = api.owner == "StaticViewMut32"
        ptr, length = self._slice_start(e.args[0], mutable, span)
        if api.owner == "MatrixView32":
            (stride,) = self.lower_in_order(e.args[1:])
            return self.to_temp(M.Aggregate(ty, (ptr, length, stride)), ty, span)
        view = ty.args[0]  # from_slice: the whole slice, exactly N elements
        ok = self._vbin("eq", length, self._const(view.dims[0]), span, T.BOOL)
        return self._some(ty, ok, (ptr,), span)

    def _bad_local_index(self, e: ast.CallExpr, got: T.Ty) -> None:
        """`LocalIndex32::new(k)` whose N nothing decided (typeck/view_ctors.py)."""
        if isinstance(got, T.ErrorTy):
            self.sink.error("E0282", "type annotations needed", e.func.span,
                            "cannot infer the value of the const parameter `N` declared on "
                            "the struct `LocalIndex32`", help="write `LocalIndex32::<N>::new(..)`")
        else:
            self.sink.error("E0308", "mismatched types", e.span,
                            f"expected `Option<LocalIndex32<N>>`, found `Option<{got}>`")

    def _slice_start(self, arg: ast.Expr, mutable: bool, span):
        """(a `*mut T` to element 0, the length) of a slice or array argument."""
        place, length, elem = self.slice_place(arg)
        length = self.operand_local(length, T.USIZE, span)
        zero = self.operand_local(self._const(0), T.USIZE, span)
        first = self.to_temp(M.Ref(place.project(M.Index(zero)), mutable),
                             T.PtrTy(elem, mutable), span)
        if not mutable:
            first = self.to_temp(M.Cast(first, T.PtrTy(elem, True)), T.PtrTy(elem, True), span)
        return first, M.Copy(M.Place(length))

    # -- DisjointSlice<T, RuntimeRowMajorTiles<ROWS, COLS>> -------------------------------
    def _runtime_tiles_op(self, e: ast.MethodCallExpr, api: ApiFn,
                          recv: T.RuntimeTilesSliceTy) -> M.Operand:
        span, name = e.span, api.name
        place = self.runtime2d_receiver(e.receiver)
        data = place.project(M.Field(0))
        if name == "row_width":
            return self.to_temp(M.Use(M.Copy(place.project(M.Field(1)))), T.U32, span)
        length = self.to_temp(M.Len(data), T.USIZE, e.receiver.span)
        if name == "len":
            return length
        if name == "is_empty":
            return self._vbin("eq", length, self._const(0), span, T.BOOL)
        (coord,) = self.lower_in_order(e.args)
        w = self.operand_local(coord, T.THREAD_COORD32, e.args[0].span)
        r, c = (self._usize(M.Copy(M.Place(w, (M.Field(k),))), span) for k in (0, 1))
        width32 = self.to_temp(M.Use(M.Copy(place.project(M.Field(1)))), T.U32, span)
        width = self._usize(width32, span)
        rows, cols = recv.dims
        first_col = self._vbin("mul", c, self._const(cols), span)
        fits_row = self._vbin("le", self._vbin("add", first_col, self._const(cols), span),
                              width, span)
        start = self._vbin("add", self._vbin("mul", self._vbin("mul", r, self._const(rows),
                                                                span), width, span),
                           first_col, span)
        last = self._vbin("add", self._vbin("add", start, self._vbin(
            "mul", self._const(rows - 1), width, span), span), self._const(cols - 1), span)
        in_len = self._vbin("lt", last, length, span)
        ok = self.to_temp(M.BinaryOp("bitand", fits_row, in_len), T.BOOL, span)
        ptr_ty = T.PtrTy(recv.elem, True)
        zero = self.operand_local(self._const(0), T.USIZE, span)
        base = self.to_temp(M.Ref(data.project(M.Deref(), M.Index(zero)), True), ptr_ty, span)
        return self._some(self.ty(e), ok, (self._ptr_add(base, start, ptr_ty, span), width32),
                          span)

    # -- the views' methods ----------------------------------------------------------------
    def view_op_more(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.Ty, place: M.Place
                     ) -> M.Operand | None:
        """The methods of this module's views; None for the others (views_api.py)."""
        span, name = e.span, api.name
        if T.local_index_bound(recv) is not None:  # LocalIndex32::get
            return self.to_temp(M.Use(M.Copy(place.project(M.Field(0)))), T.U32, span)
        kind = recv.kind
        ptr_ty = T.PtrTy(recv.elem, True)

        def fld(k: int, fty) -> M.Operand:
            return self.to_temp(M.Use(M.Copy(place.project(M.Field(k)))), fty, span)
        ty = self.ty(e)
        if name == "at" and kind != "ThreadRunMut32":
            idx = [self._usize(M.Copy(M.Place(self.operand_local(a, t, span), (M.Field(0),))),
                               span) for a, t in zip(self.lower_in_order(e.args),
                                                     (self.ty(a) for a in e.args))]
            off = idx[0]
            if len(idx) == 2:  # a tile: row * stride + col
                stride = self._const(recv.dims[2]) if kind == "StaticTileMut32" else \
                    self._usize(fld(1, T.U32), span)
                off = self._vbin("add", self._vbin("mul", idx[0], stride, span), idx[1], span)
            return self.to_temp(M.Aggregate(ty, (self._ptr_add(fld(0, ptr_ty), off, ptr_ty,
                                                               span),)), ty, span)
        if kind == "RuntimeTileMut32" and name == "at_const":
            row, col = self.r.generic_values.get(e, (0, 0))
            off = self._vbin("add", self._vbin("mul", self._const(row),
                                               self._usize(fld(1, T.U32), span), span),
                             self._const(col), span)
            return self.to_temp(M.Aggregate(ty, (self._ptr_add(fld(0, ptr_ty), off, ptr_ty,
                                                               span),)), ty, span)
        if kind == "StaticView32" and name in ("len", "is_empty"):
            n = recv.dims[0]
            return M.Constant(n, T.U32) if name == "len" else M.Constant(n == 0, T.BOOL)
        if kind not in ("MatrixView32", "RowView32", "ColView32", "ZipView32",
                        "RuntimeTileMut32"):
            return None
        if name == "stride":
            return fld(2 if kind in ("MatrixView32", "ColView32") else 1, T.U32)
        if kind == "MatrixView32" and name in ("len", "is_empty"):
            n = fld(1, T.USIZE)
            return n if name == "len" else self._vbin("eq", n, self._const(0), span, T.BOOL)
        if name in ("len", "is_empty"):
            n = fld(2 if kind == "ZipView32" else 1, T.U32)
            return n if name == "len" else self._vbin("eq", n, M.Constant(0, T.U32), span,
                                                      T.BOOL)
        if name in ("row", "col"):
            return self._matrix_slice(ty, name, fld(0, ptr_ty), fld(1, T.USIZE),
                                      fld(2, T.U32), self.lower_in_order(e.args), ptr_ty, span)
        if name == "get":
            (i,) = self.lower_in_order(e.args)
            ok = self._vbin("lt", i, fld(1, T.U32), span, T.BOOL)
            off = self._usize(i, span)
            if kind == "ColView32":
                off = self._vbin("mul", off, self._usize(fld(2, T.U32), span), span)
            return self._read_if(ty, ok, self._ptr_add(fld(0, ptr_ty), off, ptr_ty, span), span)
        if name == "zip_exact":
            (col,) = self.lower_in_order(e.args)
            c = self.operand_local(col, self.ty(e.args[0]), span)

            def cf(k: int, fty) -> M.Operand:
                return self.to_temp(M.Use(M.Copy(M.Place(c, (M.Field(k),)))), fty, span)
            n = fld(1, T.U32)
            ok = self._vbin("eq", n, cf(1, T.U32), span, T.BOOL)
            return self._some(ty, ok, (fld(0, ptr_ty), cf(0, ptr_ty), n, cf(2, T.U32)), span)
        return None

    def _matrix_slice(self, ty, name, ptr, length, stride32, args, ptr_ty, span):
        a, b = (self._usize(x, span) for x in args)
        stride = self._usize(stride32, span)
        if name == "row":  # row a, b columns
            start = self._vbin("mul", a, stride, span)
            fits = self._vbin("le", b, stride, span)
            end = self._vbin("add", start, b, span)
            ok = self.to_temp(M.BinaryOp("bitand", fits, self._vbin("le", end, length, span)),
                              T.BOOL, span)
            count = self.to_temp(M.Cast(b, T.U32), T.U32, span)
            return self._some(ty, ok, (self._ptr_add(ptr, start, ptr_ty, span), count), span)
        # column a, b rows
        some_rows = self._vbin("ne", b, self._const(0), span, T.BOOL)
        below = self._select(some_rows, self._vbin("sub", b, self._const(1), span),
                             self._const(0), T.USIZE, span)
        last = self._vbin("add", a, self._vbin("mul", below, stride, span), span)
        in_len = self._select(some_rows, self._vbin("lt", last, length, span),
                              M.Constant(True, T.BOOL), T.BOOL, span)
        ok = self.to_temp(M.BinaryOp("bitand", self._vbin("lt", a, stride, span), in_len),
                          T.BOOL, span)
        count = self.to_temp(M.Cast(b, T.U32), T.U32, span)
        return self._some(ty, ok, (self._ptr_add(ptr, a, ptr_ty, span), count, stride32), span)

    def _read_if(self, ty: T.Ty, ok: M.Operand, ptr: M.Operand, span) -> M.Operand:
        """Some(*ptr) if ok, else None: the load happens only when ok."""
        elem = ty.args[0]
        p = self.operand_local(ptr, T.PtrTy(elem, True), span)
        out = self.operand_local(self.zero_value(elem, span), elem, span)
        load, join = self.new_block(), self.new_block()
        self.switch_bool(ok, load, join, span)
        self.cur = load
        self.assign(M.Place(out), M.Use(M.Copy(M.Place(p, (M.Deref(),)))), span)
        self.goto(join, span)
        self.cur = join
        return self.to_temp(M.Aggregate(ty, (ok, M.Copy(M.Place(out)))), ty, span)
