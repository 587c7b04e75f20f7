"""Device math items that are more than one MIR operation (rows: device_api/libm.py)."""
from __future__ import annotations

from .. import ast
from ..device_api import ApiFn
from ..mir import syntax as M


class MathApiLowering:

    def api_libm_fmod(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`libm::fmodf(a, b)`: C's fmod, the remainder with the sign of `a`: Rust's `a % b`."""
        a, b = self.lower_in_order(e.args)
        return self.to_temp(M.BinaryOp("rem", a, b), self.ty(e), e.span)

    def api_libm_sincos(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`libm::sincosf(x)` -> (x.sin(), x.cos())."""
        (x,) = self.lower_in_order(e.args)
        ty = self.ty(e)
        elem = ty.elems[0]
        s = self.to_temp(M.Intrinsic("sin", (x,)), elem, e.span)
        c = self.to_temp(M.Intrinsic("cos", (x,)), elem, e.span)
        return self.to_temp(M.Aggregate(ty, (s, c)), ty, e.span)
