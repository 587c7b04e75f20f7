"""`cuda_device::vector` (device_api/vector.py): the vectors are structs of one array.

    V::new(a)              V { 0: a }            V::splat(x)   V { 0: [x; L] }
    v.to_array()           v.0                   v.as_slice()  &v.0[..] (as_mut_slice: &mut)
    as_vectors::<V>(s)     Some(&[V] of s.len() / L at s's start)
                               if s's address % A == 0 and s.len() % L == 0
    is_viewable::<V>(s)    that condition
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M


class VectorLowering:

    def api_vector(self, e, api: ApiFn) -> M.Operand:
        span, ty, name = e.span, self.ty(e), api.name
        if isinstance(e, ast.MethodCallExpr):
            place = self.lower_place(e.receiver)
            rty = self.ty(e.receiver)
            while isinstance(rty, T.RefTy):
                place, rty = place.project(M.Deref()), rty.inner
            arr = place.project(M.Field(0))
            if name == "to_array":
                return self.to_temp(M.Use(M.Copy(arr)), ty, span)
            return self.to_temp(M.Ref(arr, name == "as_mut_slice"), ty, span)
        if name in ("new", "splat"):
            (v,) = self.lower_in_order(e.args)
            if name == "splat":
                arr_ty = ty.fields[0][1]
                v = self.to_temp(M.Repeat(v, arr_ty.length), arr_ty, span)
            return self.to_temp(M.Aggregate(ty, (v,)), ty, span)
        (vec,) = self.r.generic_values[e]  # V of `::<V>` (typeck/vectors.py)
        _, lanes, align = T.vector_parts(vec)
        mutable = name == "as_vectors_mut"
        place, length, elem = self.slice_place(e.args[0])
        length = self.operand_local(length, T.USIZE, span)
        zero = self.operand_local(M.Constant(0, T.USIZE), T.USIZE, span)
        first = self.to_temp(M.Ref(place.project(M.Index(zero)), mutable),
                             T.PtrTy(elem, mutable), span)
        addr = self.to_temp(M.Cast(first, T.USIZE), T.USIZE, span)
        n = M.Copy(M.Place(length))

        def rem(a, k):
            r = self.to_temp(M.BinaryOp("rem", a, M.Constant(k, T.USIZE)), T.USIZE, span)
            return self.to_temp(M.BinaryOp("eq", r, M.Constant(0, T.USIZE)), T.BOOL, span)
        ok = self.to_temp(M.BinaryOp("bitand", rem(addr, align), rem(n, lanes)), T.BOOL, span)
        if name == "is_viewable":
            return ok
        vptr = self.to_temp(M.Cast(first, T.PtrTy(vec, mutable)), T.PtrTy(vec, mutable), span)
        count = self.to_temp(M.BinaryOp("div", n, M.Constant(lanes, T.USIZE)), T.USIZE, span)
        view_ty = ty.args[0]
        view = self.to_temp(M.Intrinsic("slice_from_parts", (vptr, count)), view_ty, span)
        return self.to_temp(M.Aggregate(ty, (ok, view)), ty, span)
