"""`cuda_device::view` (device_api/views.py): views of a `DisjointSlice` as structs of the
element pointer, made with one check and used without further ones.

    s.element_thread32(i)    Some(InBoundsMut32{&s[i]})            if i < len
    s.tile_thread32(i)       Some(StaticViewMut32{&s[i*N]})        if i*N + N <= len
    s.thread_run32(i)        Some(ThreadRunMut32{&s[i*N], min(N, len - i*N), clipped})
                                                                   if i*N < len
    s.grid_stride_runs32(i)  GridStrideRuns32{&s[0], len, pos: i*N, step: threads*N}
    runs.next_run()          the run at pos (as thread_run32), pos += step
    s.tile_2d32(c)           Some(StaticTileMut32{&s[r*R*S + c*C]}) if (c+1)*C <= S and the
                                                                   tile's last element < len
    cell.read() / write(v)   *ptr / *ptr = v
    view.at_const::<I>()     InBoundsMut32{ptr + I}  (tile: ptr + ROW*S + COL)
    run.at(k)                Some(InBoundsMut32{ptr + k}) if k < run length

Offsets are computed in usize from the u32 witnesses, so they cannot wrap; an address is
computed either way (only arithmetic) and dereferenced only where the check allows it.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from .builder import UNIT_CONST


class ViewLowering:

    def api_view(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        recv = self.ty(e.receiver)
        while isinstance(recv, T.RefTy):
            recv = recv.inner
        if isinstance(recv, T.RuntimeTilesSliceTy):  # lower/views_more.py
            return self._runtime_tiles_op(e, api, recv)
        if isinstance(recv, T.DisjointSliceTy):
            return self._make_view(e, api, recv)
        return self._view_op(e, api, recv)

    # -- arithmetic --------------------------------------------------------------------
    def _vbin(self, op: str, a, b, span, ty=T.USIZE) -> M.Operand:
        return self.to_temp(M.BinaryOp(op, a, b), T.BOOL if op in ("lt", "le") else ty, span)

    def _usize(self, v, span) -> M.Operand:
        return self.to_temp(M.Cast(v, T.USIZE), T.USIZE, span)

    def _const(self, v: int) -> M.Operand:
        return M.Constant(v, T.USIZE)

    def _select(self, c, a, b, ty, span) -> M.Operand:
        return self.to_temp(M.Intrinsic("select", (c, a, b)), ty, span)

    def _ptr_add(self, p, n, ty, span) -> M.Operand:
        return self.to_temp(M.Intrinsic("ptr_add", (p, n)), ty, span)

    # -- DisjointSlice -> view ---------------------------------------------------------------
    def _make_view(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.DisjointSliceTy):
        span, name = e.span, api.name
        place = self.disjoint_receiver(e)
        (witness,) = self.lower_in_order(e.args)
        w = self.operand_local(witness, self.ty(e.args[0]), e.args[0].span)
        ty = self.ty(e)
        ptr_ty = T.PtrTy(recv.elem, True)
        zero = self.operand_local(self._const(0), T.USIZE, span)
        base = self.to_temp(M.Ref(place.project(M.Deref(), M.Index(zero)), True), ptr_ty, span)
        length = self.to_temp(M.Len(place), T.USIZE, e.receiver.span)
        dims = [int(d) for d in recv.index.partition(":")[2].split(":") if d]

        def field(k: int) -> M.Operand:
            return self._usize(M.Copy(M.Place(w, (M.Field(k),))), span)

        if name == "element_thread32":
            i = field(0)
            ok = self._vbin("lt", i, length, span)
            return self._some(ty, ok, (self._ptr_add(base, i, ptr_ty, span),), span)
        if name == "tile_2d32":
            rows, cols, stride = dims
            r, c = field(0), field(1)
            first_col = self._vbin("mul", c, self._const(cols), span)
            col_end = self._vbin("add", first_col, self._const(cols), span)
            fits_row = self._vbin("le", col_end, self._const(stride), span)
            start = self._vbin("add", self._vbin("mul", r, self._const(rows * stride), span),
                               first_col, span)
            last = self._vbin("add", start, self._const((rows - 1) * stride + cols - 1), span)
            in_len = self._vbin("lt", last, length, span)
            ok = self.to_temp(M.BinaryOp("bitand", fits_row, in_len), T.BOOL, span)
            return self._some(ty, ok, (self._ptr_add(base, start, ptr_ty, span),), span)
        (n,) = dims
        start = self._vbin("mul", field(0), self._const(n), span)
        if name == "tile_thread32":
            end = self._vbin("add", start, self._const(n), span)
            ok = self._vbin("le", end, length, span)
            return self._some(ty, ok, (self._ptr_add(base, start, ptr_ty, span),), span)
        if name == "thread_run32":
            return self._run_at(ty, base, start, length, n, ptr_ty, span)
        # grid_stride_runs32: the grid's threads (x) times N elements apart
        threads = self.to_temp(M.BinaryOp("mul", self.special("nctaid.x", span),
                                          self.special("ntid.x", span)), T.U32, span)
        step = self._vbin("mul", self._usize(threads, span), self._const(n), span)
        return self.to_temp(M.Aggregate(ty, (base, length, start, step)), ty, span)

    def _some(self, ty, ok, fields, span) -> M.Operand:
        view = ty.args[0]
        value = self.to_temp(M.Aggregate(view, fields), view, span)
        return self.to_temp(M.Aggregate(ty, (ok, value)), ty, span)

    def _run_at(self, ty, base, start, length, n, ptr_ty, span) -> M.Operand:
        """Some(the run of up to N elements at `start`) while start < len."""
        ok = self._vbin("lt", start, length, span)
        left = self._vbin("sub", self._select(ok, length, start, T.USIZE, span), start, span)
        clipped = self._vbin("lt", left, self._const(n), span)
        count = self._select(clipped, left, self._const(n), T.USIZE, span)
        count32 = self.to_temp(M.Cast(count, T.U32), T.U32, span)
        return self._some(ty, ok, (self._ptr_add(base, start, ptr_ty, span), count32,
                                   clipped), span)

    # -- the views' methods ------------------------------------------------------------------
    def _view_op(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.ViewTy) -> M.Operand:
        span, name = e.span, api.name
        place = self.lower_place(e.receiver)
        rty = self.ty(e.receiver)
        while isinstance(rty, T.RefTy):
            place, rty = place.project(M.Deref()), rty.inner
        more = self.view_op_more(e, api, rty, place)  # lower/views_more.py
        if more is not None:
            return more
        ty = self.ty(e)
        ptr_ty = T.PtrTy(recv.elem, True)

        def fld(k: int, fty) -> M.Operand:
            return self.to_temp(M.Use(M.Copy(place.project(M.Field(k)))), fty, span)
        ptr = place.project(M.Field(0))
        if name == "read":
            return self.to_temp(M.Use(M.Copy(ptr.project(M.Deref()))), ty, span)
        if name == "write":
            (v,) = self.lower_in_order(e.args)
            self.assign(ptr.project(M.Deref()), M.Use(v), span)
            return UNIT_CONST
        if name in ("get", "get_mut"):
            return self.to_temp(M.Ref(ptr.project(M.Deref()), name == "get_mut"), ty, span)
        if name == "len" and recv.kind == "StaticViewMut32":
            return M.Constant(recv.dims[0], T.U32)
        if name in ("rows", "cols"):
            return M.Constant(recv.dims[0 if name == "rows" else 1], T.U32)
        if name == "is_empty" and recv.kind == "StaticViewMut32":
            return M.Constant(recv.dims[0] == 0, T.BOOL)
        if name == "len":
            return fld(1, T.U32)
        if name == "is_empty":
            return self._vbin("eq", fld(1, T.U32), M.Constant(0, T.U32), span, T.BOOL)
        if name == "is_clipped":
            return fld(2, T.BOOL)
        if name == "at_const":
            vals = self.r.generic_values.get(e, (0, 0))
            off = vals[0] if recv.kind in ("StaticViewMut32", "StaticView32") else \
                vals[0] * recv.dims[2] + vals[1]
            cell = self._ptr_add(fld(0, ptr_ty), self._const(off), ptr_ty, span)
            return self.to_temp(M.Aggregate(ty, (cell,)), ty, span)
        if name == "at":  # a run's element k
            (k,) = self.lower_in_order(e.args)
            ok = self._vbin("lt", k, fld(1, T.U32), span, T.BOOL)
            cell = self._ptr_add(fld(0, ptr_ty), self._usize(k, span), ptr_ty, span)
            return self._some(ty, ok, (cell,), span)
        if name == "period":
            return self.to_temp(M.Cast(fld(3, T.USIZE), T.U64), T.U64, span)
        # next_run: the run at pos, then pos += step (pos stops at len: no wrap-around)
        n = recv.dims[0]
        length, pos, step = fld(1, T.USIZE), fld(2, T.USIZE), fld(3, T.USIZE)
        out = self._run_at(ty, fld(0, ptr_ty), pos, length, n, ptr_ty, span)
        left = self._vbin("sub", self._select(self._vbin("lt", pos, length, span), length, pos,
                                              T.USIZE, span), pos, span)
        jump = self._select(self._vbin("lt", step, left, span), step, left, T.USIZE, span)
        self.assign(place.project(M.Field(2)), M.BinaryOp("add", pos, jump), span)
        return out
