"""`cuda_device::vector` (device_api/vector.py): `V::new` / `V::splat`, `as_vectors::<V>`
and its kin, and the vectors' methods, whose types come from V."""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn


class VectorMixin:

    def call_vector_new(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """`F32x4::new([a, b, c, d])`, `F32x4::splat(a)`."""
        ty = T.vector_ty(api.owner)
        elem, lanes, _ = T.vector_parts(ty)
        want = T.ArrayTy(elem, lanes) if api.name == "new" else elem
        if len(e.args) != 1:
            self.sink.error("E0061", f"this function takes 1 argument but {len(e.args)} were "
                            "supplied", e.func.span, "expected 1 argument")
            return T.ERROR
        self.coerce(self.check_expr(e.args[0], want), want, e.args[0].span)
        return ty

    def call_vector_view(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """`as_vectors::<V>(&s)` -> Option<&[V]> (`_mut`: `&mut`), `is_viewable::<V>(&s)`."""
        gargs = e.func.path.last.generic_args
        vec = self._type_arg(gargs[0]) if len(gargs) == 1 else None
        parts = T.vector_parts(vec) if vec is not None else None
        mutable = api.name == "as_vectors_mut"
        if len(e.args) != 1:
            self.sink.error("E0061", f"this function takes 1 argument but {len(e.args)} were "
                            "supplied", e.func.span, "expected 1 argument")
            return T.ERROR
        if parts is None:
            self.check_expr(e.args[0])
            if vec is None or not isinstance(vec, T.ErrorTy):
                self.sink.error("E0277", f"`{api.name}` needs a vector type", e.func.span,
                                "the trait `Vector` is not implemented here",
                                help=f"write `{api.name}::<F32x4>(..)` (or F32x2, F64x2, "
                                     "U32x2, U32x4, U16x4, U16x8)")
            return T.ERROR
        self.r.generic_values[e] = (vec,)
        elem = parts[0]
        want = T.RefTy(T.SliceTy(elem), mutable)
        self.coerce(self.check_expr(e.args[0], want), want, e.args[0].span)
        if api.name == "is_viewable":
            return T.BOOL
        return T.option_ty(T.RefTy(T.SliceTy(vec), mutable))

    def vector_method(self, e: ast.MethodCallExpr, api: ApiFn, recv: T.Ty):
        elem, lanes, _ = T.vector_parts(recv)
        if api.name == "to_array":
            return (), T.ArrayTy(elem, lanes)
        return (), T.RefTy(T.SliceTy(elem), api.name == "as_mut_slice")
