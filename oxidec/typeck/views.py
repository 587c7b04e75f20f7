"""`cuda_device::view` (device_api/views.py): the methods that make views of a
`DisjointSlice` and the views' own methods. Their types depend on the receiver (its element
type and index space, the view's const parameters), so they are computed here."""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..device_api.views import SLICE_METHODS
from .vectors import VectorMixin
from .view_ctors import ViewCtorMixin

WITNESS = {"ThreadIndex32": T.THREAD_INDEX32, "ThreadCoord2D32": T.THREAD_COORD32}


class ViewMixin(ViewCtorMixin, VectorMixin):

    def view_method(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.Ty
                    ) -> tuple[tuple[T.Ty, ...], T.Ty]:
        """(parameter types, result type) of a view method call."""
        if isinstance(recv, T.RuntimeTilesSliceTy):
            return self._tiles_slice_method(e, api, recv)
        if isinstance(recv, T.DisjointSliceTy):
            return self._slice_view(e, api, recv)
        if T.local_index_bound(recv) is not None:  # LocalIndex32<N>::get
            return (), T.U32
        elem, kind, dims = recv.elem, recv.kind, recv.dims
        name = api.name
        cell = T.view_ty("InBounds32" if kind in ("StaticView32", "InBounds32")
                         else "InBoundsMut32", elem)
        if name == "read":
            return (), elem
        if name == "write":
            return (elem,), T.UNIT
        if name == "get" and kind in ("RowView32", "ColView32"):
            return (T.U32,), T.option_ty(elem)
        if name in ("get", "get_mut"):
            return (), T.RefTy(elem, name == "get_mut")
        if name == "len" and kind == "MatrixView32":
            return (), T.USIZE
        if name in ("len", "rows", "cols", "stride"):
            return (), T.U32
        if name in ("is_empty", "is_clipped"):
            return (), T.BOOL
        if name in ("row", "col"):
            view = T.view_ty("RowView32" if name == "row" else "ColView32", elem)
            return (T.U32, T.U32), T.option_ty(view)
        if name == "zip_exact":
            return (T.view_ty("ColView32", elem),), T.option_ty(T.view_ty("ZipView32", elem))
        if name == "at" and kind == "ThreadRunMut32":  # element k: Some while k < its length
            return (T.U32,), T.option_ty(cell)
        if name == "at":  # checked indices: LocalIndex32<N> (a tile: <ROWS>, <COLS>)
            bounds = dims[:1] if kind in ("StaticView32", "StaticViewMut32") else dims[:2]
            return tuple(T.local_index_ty(b) for b in bounds), cell
        if name == "period":
            return (), T.U64
        if name == "next_run":
            return (), T.option_ty(T.view_ty("ThreadRunMut32", elem, dims))
        # at_const::<I>() / at_const::<ROW, COL>(): checked here against N / ROWS, COLS
        bounds = dims[:1] if kind in ("StaticView32", "StaticViewMut32") else dims[:2]
        values = self._view_consts(e.generic_args, e.method, e.method_span, bounds, api.path)
        self.r.generic_values[e] = values
        return (), cell

    def _view_consts(self, gargs, method: str, span, bounds, path: str) -> tuple[int, ...]:
        if len(gargs) != len(bounds):
            self.sink.error("E0107", f"`{path}` takes {len(bounds)} generic argument"
                            f"{'s' if len(bounds) > 1 else ''}", span,
                            f"write `{method}::<{', '.join('I' * len(bounds))}>()`")
            return (0,) * len(bounds)
        out = []
        for g, bound in zip(gargs, bounds):
            got = self.consts.eval(self._const_arg(g), T.U32)
            v = got.value if got is not None else 0
            if not 0 <= v < bound:
                self.sink.error("E0080", f"evaluation of constant value failed: index {v} is "
                                f"out of bounds of a view of {bound}", g.span,
                                f"the index must be less than {bound}")
                v = 0
            out.append(v)
        return tuple(out)

    def _tiles_slice_method(self, e: ast.MethodCallExpr, api: ApiFn,
                            recv: T.RuntimeTilesSliceTy) -> tuple[tuple[T.Ty, ...], T.Ty]:
        """`DisjointSlice<T, RuntimeRowMajorTiles<ROWS, COLS>>`'s methods."""
        name = api.name
        if name == "tile_2d32_rt":
            tile = T.view_ty("RuntimeTileMut32", recv.elem, recv.dims)
            return (T.THREAD_COORD32,), T.option_ty(tile)
        return (), {"row_width": T.U32, "len": T.USIZE, "is_empty": T.BOOL}[name]

    def flat_space_only(self, e: ast.MethodCallExpr, recv: T.Ty, ret: T.Ty) -> T.Ty:
        """`get_mut` / `get_mut_indexed` address one element per thread index: not defined
        for the tile spaces, whose threads own several (cuda-oxide: `FlatIndexSpace`)."""
        if isinstance(recv, T.DisjointSliceTy) and (
                recv.index.startswith(("tiles:", "rmtiles:")) or
                recv.index == "warp" and e.method == "get_mut_indexed"):
            self.sink.error("E0599", f"no method named `{e.method}` found for `{recv}` in the "
                            "current scope", e.method_span, "method not found",
                            notes=["a thread owns a tile of a tiled slice: take it with "
                                   "`tile_thread32`, `thread_run32` or `tile_2d32`"
                                   if recv.index != "warp" else "a `WarpIndex` slice is "
                                   "addressed by `get_mut(thread::warp_index()?)`"])
            return T.ERROR
        return ret

    def _slice_view(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.DisjointSliceTy
                    ) -> tuple[tuple[T.Ty, ...], T.Ty]:
        name = api.name
        space, witness = SLICE_METHODS[name]
        kind, _, rest = recv.index.partition(":")
        if kind != space:
            want = {"1d": "DisjointSlice<T>", "tiles": "DisjointSlice<T, LinearTiles<N>>",
                    "rmtiles": "DisjointSlice<T, RowMajorTiles<ROWS, COLS, ROW_STRIDE>>"}
            self.sink.error("E0599", f"no method named `{name}` found for `{recv}` in the "
                            "current scope", e.method_span, "method not found",
                            notes=[f"`{name}` is defined for `{want[space]}`"])
            return (WITNESS[witness],), T.ERROR
        dims = tuple(int(d) for d in rest.split(":")) if rest else ()
        elem = recv.elem
        if name == "element_thread32":
            ret = T.option_ty(T.view_ty("InBoundsMut32", elem))
        elif name == "tile_thread32":
            ret = T.option_ty(T.view_ty("StaticViewMut32", elem, dims))
        elif name == "thread_run32":
            ret = T.option_ty(T.view_ty("ThreadRunMut32", elem, dims))
        elif name == "grid_stride_runs32":
            ret = T.view_ty("GridStrideRuns32", elem, dims)
        else:  # tile_2d32
            ret = T.option_ty(T.view_ty("StaticTileMut32", elem, dims))
        return (WITNESS[witness],), ret

    # -- uniform::Uniform<T> (device_api/uniform.py) ------------------------------------------
    def uniform_method(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.Ty, params, ret):
        inner = T.uniform_inner(recv)
        if api.name == "get":
            return (), inner
        if inner != T.U32:
            self.sink.error("E0599", f"no method named `{api.name}` found for `{recv}` in the "
                            "current scope", e.method_span, "method not found",
                            notes=[f"`{api.name}` is defined for `Uniform<u32>`"])
            return params, T.ERROR
        if api.const_generics:
            if len(e.generic_args) != 1:
                self.sink.error("E0107", f"`{api.path}` takes 1 generic argument",
                                e.method_span, f"write `{api.name}::<C>()`")
                self.r.generic_values[e] = (0,)
            else:
                got = self.consts.eval(self._const_arg(e.generic_args[0]), T.U32)
                self.r.generic_values[e] = (got.value if got is not None else 0,)
        return params, ret

    def call_uniform_new(self, e: ast.CallExpr, expected=None) -> T.Ty:
        """`Uniform::new_unchecked(v)`: `Uniform<T>` of the argument's type."""
        if len(e.args) != 1:
            self.sink.error("E0061", f"this function takes 1 argument but {len(e.args)} were "
                            "supplied", e.func.span, "expected 1 argument")
            return T.ERROR
        want = T.uniform_inner(self.shallow(expected)) if expected is not None else None
        got = self.shallow(self.check_expr(e.args[0], want))
        if isinstance(got, T.InferTy):
            self.unify(got, want if want is not None else
                       (T.F64 if got.kind == "float" else T.I32))
            got = self.shallow(got)
        if isinstance(got, T.ErrorTy):
            return T.ERROR
        return T.uniform_ty(self.deep(got))
