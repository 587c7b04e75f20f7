"""Device math items that are more than one MIR operation (rows: device_api/libm.py,
device_api/swizzle.py)."""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M


class MathApiLowering:

    def api_libm_fmod(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`libm::fmodf(a, b)`: C's fmod, the remainder with the sign of `a`: Rust's `a % b`."""
        a, b = self.lower_in_order(e.args)
        return self.to_temp(M.BinaryOp("rem", a, b), self.ty(e), e.span)

    def api_swizzle(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`Swizzle::<B, M, S>::apply(x)` = x ^ (((x >> S) & ((1 << B) - 1)) << M)."""
        (x,) = self.lower_in_order(e.args)
        b, m, s = self.r.generic_values.get(e, (1, 0, 1))
        span = e.span
        t = self.to_temp(M.BinaryOp("shr", x, M.Constant(s, T.USIZE)), T.USIZE, span)
        t = self.to_temp(M.BinaryOp("bitand", t, M.Constant((1 << b) - 1, T.USIZE)), T.USIZE,
                         span)
        t = self.to_temp(M.BinaryOp("shl", t, M.Constant(m, T.USIZE)), T.USIZE, span)
        return self.to_temp(M.BinaryOp("bitxor", x, t), T.USIZE, span)

    def api_shared_ptr(self, e, api: ApiFn) -> M.Operand:
        """`S.as_ptr()` / `S.as_mut_ptr()`: the address of element 0 (nothing is accessed);
        `SharedArray::as_raw_mut_ptr(p)`: p as a pointer to the element type."""
        ty = self.ty(e)
        if api.name == "as_raw_mut_ptr":
            (p,) = self.lower_in_order(e.args)
            return self.to_temp(M.Cast(p, ty), ty, e.span)
        place = self.lower_place(e.receiver)
        recv = self.ty(e.receiver)
        while isinstance(recv, T.RefTy):
            place, recv = place.project(M.Deref()), recv.inner
        zero = self.operand_local(M.Constant(0, T.USIZE), T.USIZE, e.span)
        return self.to_temp(M.Ref(place.project(M.Index(zero)), api.name == "as_mut_ptr"), ty,
                            e.span)

    def api_shared_array_const(self, e, api: ApiFn) -> M.Operand:
        (value,) = self.r.generic_values.get(e, (0,))
        ty = self.ty(e)
        return M.Constant(bool(value) if ty == T.BOOL else value, ty)

    def api_libm_sincos(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`libm::sincosf(x)` -> (x.sin(), x.cos())."""
        (x,) = self.lower_in_order(e.args)
        ty = self.ty(e)
        elem = ty.elems[0]
        s = self.to_temp(M.Intrinsic("sin", (x,)), elem, e.span)
        c = self.to_temp(M.Intrinsic("cos", (x,)), elem, e.span)
        return self.to_temp(M.Aggregate(ty, (s, c)), ty, e.span)

    def api_cusimd_new(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`CuSimd::<T, N>::new(array)`: the array is its one field."""
        (arr,) = self.lower_in_order(e.args)
        ty = self.ty(e)
        return self.to_temp(M.Aggregate(ty, (arr,)), ty, e.span)

    def api_cusimd(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        """CuSimd's methods: reads of its array (`at`: bounds-checked, as `v[i]`)."""
        span = e.span
        place = self.lower_place(e.receiver)
        recv = self.ty(e.receiver)
        while isinstance(recv, T.RefTy):
            place, recv = place.project(M.Deref()), recv.inner
        elem, n = T.cusimd_parts(recv)
        arr = place.project(M.Field(0))
        name, ty = api.name, self.ty(e)

        def lane(i: int) -> M.Operand:
            return self.to_temp(M.Use(M.Copy(arr.project(M.ConstIndex(i)))), elem, span)
        if name == "len":
            return M.Constant(n, T.USIZE)
        if name == "is_empty":
            return M.Constant(False, T.BOOL)
        if name == "to_array":
            return self.to_temp(M.Use(M.Copy(arr)), ty, span)
        if name == "get":
            return lane(self.r.generic_values.get(e, (0,))[0])
        if name in ("x", "y", "z", "w"):
            return lane("xyzw".index(name))
        if name in ("xy", "xyzw", "lo", "hi"):
            first = 2 if name == "hi" else 0
            parts = tuple(lane(first + k) for k in range(len(name) if name[0] == "x" else 2))
            if name in ("lo", "hi"):
                inner = ty.fields[0][1]
                parts = (self.to_temp(M.Aggregate(inner, parts), inner, span),)
            return self.to_temp(M.Aggregate(ty, parts), ty, span)
        (i,) = self.lower_in_order(e.args)  # at(i)
        idx = self.operand_local(i, T.USIZE, span)
        if self.checked:
            ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(idx)), M.Constant(n, T.USIZE)),
                              T.BOOL, span)
            self.check(ok, "index out of bounds", span)
        return self.to_temp(M.Use(M.Copy(arr.project(M.Index(idx)))), elem, span)
