"""`uniform::Uniform<T>` (device_api/uniform.py): a one-field struct of the value.

    block_dim_x()            Uniform(%ntid.x)     (y, z; grid_dim_*: %nctaid.*)
    Uniform::new_unchecked(v) Uniform(v)
    u.get()                  u.0
    u.wrapping_add(v)        Uniform(u.0 + v.0)   (sub, mul: wrapping; saturating_add/sub:
                                                  clamped to 0..=u32::MAX; min, max)
    u.wrapping_mul_const::<C>()  Uniform(u.0 * C)  (wrapping_add_const: + C)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M


class UniformLowering:

    def api_uniform(self, e, api: ApiFn) -> M.Operand:
        span, name, ty = e.span, api.name, self.ty(e)
        if isinstance(e, ast.CallExpr):
            if name == "new_unchecked":
                (v,) = self.lower_in_order(e.args)
            else:  # block_dim_x .. grid_dim_z
                kind, _, axis = name.partition("_dim_")
                v = self.special(f"{'ntid' if kind == 'block' else 'nctaid'}.{axis}", span)
            return self.to_temp(M.Aggregate(ty, (v,)), ty, span)
        place = self.lower_place(e.receiver)
        rty = self.ty(e.receiver)
        while isinstance(rty, T.RefTy):
            place, rty = place.project(M.Deref()), rty.inner
        inner = T.uniform_inner(rty)
        a = self.to_temp(M.Use(M.Copy(place.project(M.Field(0)))), inner, span)
        if name == "get":
            return a
        if name.endswith("_const"):
            (c,) = self.r.generic_values.get(e, (0,))
            b = M.Constant(c, T.U32)
            name = name.removesuffix("_const")
        else:
            (other,) = self.lower_in_order(e.args)
            o = self.operand_local(other, rty, span)
            b = self.to_temp(M.Use(M.Copy(M.Place(o, (M.Field(0),)))), T.U32, span)
        return self.to_temp(M.Aggregate(ty, (self._u32_op(name, a, b, span),)), ty, span)

    def _u32_op(self, name: str, a, b, span) -> M.Operand:
        def bin_(op, x, y, ty=T.U32):
            return self.to_temp(M.BinaryOp(op, x, y), ty, span)

        def sel(c, x, y):
            return self.to_temp(M.Intrinsic("select", (c, x, y)), T.U32, span)
        if name in ("wrapping_add", "wrapping_sub", "wrapping_mul"):
            return bin_(name.removeprefix("wrapping_")[:3], a, b)
        if name == "saturating_add":  # a + b wraps below a exactly when it overflows
            s = bin_("add", a, b)
            return sel(bin_("lt", s, a, T.BOOL), M.Constant(0xFFFF_FFFF, T.U32), s)
        if name == "saturating_sub":
            return sel(bin_("lt", a, b, T.BOOL), M.Constant(0, T.U32), bin_("sub", a, b))
        if name == "min":
            return sel(bin_("lt", b, a, T.BOOL), b, a)
        return sel(bin_("lt", a, b, T.BOOL), b, a)  # max
