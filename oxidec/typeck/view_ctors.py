"""`cuda_device::view` types written in source and the associated functions that make
views and indices (device_api/views.py `VIEW_CONSTRUCTORS`):

    MatrixView32::new(slice, stride)          MatrixView32<T>            (T of the slice)
    RowView32::empty() / ColView32::empty()   T from `::<T>` or the expected type
    StaticView32::from_slice(&s)              Option<StaticView32<T, N>>
    StaticViewMut32::from_slice(&mut s)       Option<StaticViewMut32<T, N>>
    LocalIndex32::new(raw)                    Option<LocalIndex32<N>>
    LocalIndex32::constant::<I>()             LocalIndex32<N>            (I < N, else E0080)

N comes from the type's turbofish (`LocalIndex32::<4>::new(k)`) or from the type expected
where the call stands (`v.at(LocalIndex32::constant::<2>())`); without either, E0282 (but
`LocalIndex32::new(k)` leaves its type to inference: `v.at(i)` later decides it).
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn

# type name -> (type arguments, const arguments) as written in source
VIEW_TYPE_ARGS = {
    "InBoundsMut32": (1, 0), "InBounds32": (1, 0), "StaticViewMut32": (1, 1),
    "StaticView32": (1, 1), "StaticTileMut32": (1, 3), "RuntimeTileMut32": (1, 2),
    "ThreadRunMut32": (1, 1), "GridStrideRuns32": (1, 1), "MatrixView32": (1, 0),
    "RowView32": (1, 0), "ColView32": (1, 0), "ZipView32": (1, 0),
}


class ViewCtorMixin:

    def view_type(self, name: str, gargs, te) -> T.Ty | None:
        """`RowView32<f32>`, `StaticView32<f32, 4>`, `LocalIndex32<4>` in a type, or None."""
        if name == "LocalIndex32" and len(gargs) == 1:
            n = self.consts.eval_usize(self._const_arg(gargs[0]))
            return T.local_index_ty(n if n is not None else 0)
        shape = VIEW_TYPE_ARGS.get(name)
        if shape is None or len(gargs) != sum(shape):
            return None
        elem = self._type_arg(gargs[0])
        dims = tuple(self.consts.eval_usize(self._const_arg(g)) or 0 for g in gargs[1:])
        return T.view_ty(name, elem, dims)

    def call_view_new(self, e: ast.CallExpr, api: ApiFn, expected) -> T.Ty:
        owner, name = api.owner, api.name
        segs = e.func.path.segments
        owner_args = segs[-2].generic_args if len(segs) >= 2 else ()
        exp = self.shallow(expected) if expected is not None else None
        if exp is not None and T.is_option(exp):
            exp = self.shallow(exp.args[0])
        if owner == "MatrixView32":
            if not self._view_argc(e, 2):
                return T.ERROR
            elem = self._slice_elem(e.args[0], False)
            self.coerce(self.check_expr(e.args[1], T.U32), T.U32, e.args[1].span)
            return T.view_ty(owner, elem) if elem is not None else T.ERROR
        if name == "empty":
            if not self._view_argc(e, 0):
                return T.ERROR
            elem = self._type_arg(owner_args[0]) if len(owner_args) == 1 else \
                exp.elem if T.view_kind(exp) == owner else None
            if elem is None:
                return self._view_needs(e, f"{owner}::<T>::empty()", "type", "T", owner)
            return T.view_ty(owner, elem)
        if owner == "LocalIndex32":
            n = self._view_bound(owner_args, 0, exp)
            if name == "new":
                if not self._view_argc(e, 1):
                    return T.ERROR
                self.coerce(self.check_expr(e.args[0], T.U32), T.U32, e.args[0].span)
            elif not self._view_argc(e, 0):
                return T.ERROR
            if n is None and name == "new":  # N from where the index is used, later
                return T.option_ty(self.fresh("any"))  # (lower/views_more.py checks it)
            if n is None:
                return self._view_needs(e, "LocalIndex32::<N>::constant::<I>()", "const", "N",
                                        owner)
            ty = T.local_index_ty(n)
            if name == "new":
                return T.option_ty(ty)
            (i,) = self._view_consts(segs[-1].generic_args, name, e.func.span, (n,), api.path)
            self.r.generic_values[e] = (i,)
            return ty
        # StaticView32 / StaticViewMut32::from_slice
        if not self._view_argc(e, 1):
            return T.ERROR
        elem = self._slice_elem(e.args[0], owner == "StaticViewMut32")
        n = self._view_bound(owner_args, 1, exp if T.view_kind(exp) == owner else None)
        if elem is None:
            return T.ERROR
        if n is None:
            return self._view_needs(e, f"{owner}::<T, N>::from_slice(..)", "const", "N", owner)
        return T.option_ty(T.view_ty(owner, elem, (n,)))

    def _view_argc(self, e: ast.CallExpr, n: int) -> bool:
        if len(e.args) == n:
            return True
        self.sink.error("E0061", f"this function takes {n} argument{'s' if n != 1 else ''} "
                        f"but {len(e.args)} were supplied", e.func.span, f"expected {n}")
        for a in e.args:
            self.check_expr(a)
        return False

    def _view_bound(self, owner_args, k: int, exp) -> int | None:
        """N: the const argument k of the type's turbofish, or of the expected type."""
        if len(owner_args) > k:
            return self.consts.eval_usize(self._const_arg(owner_args[k]))
        bound = T.local_index_bound(exp) if exp is not None else None
        if bound is not None:
            return bound
        if T.view_kind(exp) is not None and exp.dims:
            return exp.dims[0]
        return None

    def _slice_elem(self, arg: ast.Expr, mutable: bool) -> T.Ty | None:
        """T of a `&[T]` (`&mut [T]`) argument, or of a reference to an array."""
        ty = self.shallow(self.check_expr(arg))
        if isinstance(ty, T.RefTy) and (ty.mutable or not mutable):
            inner = self.shallow(ty.inner)
            if isinstance(inner, (T.SliceTy, T.ArrayTy)):
                return self.shallow(inner.elem)
        if not isinstance(ty, T.ErrorTy):
            want = "&mut [T]" if mutable else "&[T]"
            self.sink.error("E0308", "mismatched types", arg.span,
                            f"expected `{want}`, found `{self.deep(ty)}`")
        return None

    def _view_needs(self, e: ast.CallExpr, write: str, kind: str, param: str,
                    owner: str) -> T.Ty:
        what = "type" if kind == "type" else "value"
        self.sink.error("E0282", "type annotations needed", e.func.span,
                        f"cannot infer the {what} of the {kind} parameter `{param}` declared "
                        f"on the struct `{owner}`", help=f"write `{write}`")
        return T.ERROR
