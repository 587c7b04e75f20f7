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

    def api_libm_sincos(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`libm::sincosf(x)` -> (x.sin(), x.cos())."""
        (x,) = self.lower_in_order(e.args)
        ty = self.ty(e)
        elem = ty.elems[0]
        s = self.to_temp(M.Intrinsic("sin", (x,)), elem, e.span)
        c = self.to_temp(M.Intrinsic("cos", (x,)), elem, e.span)
        return self.to_temp(M.Aggregate(ty, (s, c)), ty, e.span)
