"""`f16` and `bf16` methods: what the device computes natively on halves, and the rest
through f32, as the `half` crate and cuda-oxide do.

    method_call_expr: expr "." IDENT "(" args? ")"      `h.sqrt()`, `h.to_f32()`
    call_expr: path "(" args ")"                        `f16::from_f32(x)`, `bf16::from_bits(b)`

Native on halves (one PTX instruction, rounded once to the half format): `+ - *` and
`mul_add` (the emitter and the simulator: halves.py there); sign-bit operations (`-x`,
`abs`, `copysign`); comparisons, `min`/`max`/`clamp` (exact through f32). Everything else
(`sqrt`, `exp`, `sin`, `/`, `%`, `floor`, ...) widens to f32 (exact), runs the f32 routine
and rounds the result back once: for `/` and `sqrt` that is the correctly rounded half
result (24 >= 2*11 + 2 significand bits: the double rounding is innocuous), for the
transcendental routines it is the f32 result rounded, as `half`'s `f16::from_f32(x.to_f32().exp())`.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M

# Methods of the halves that the device computes on the halves themselves.
NATIVE = ("abs", "mul_add", "to_bits", "clamp", "is_nan")


class HalfLowering:

    def widen_half(self, value: M.Operand, ty: T.Ty, span) -> M.Operand:
        return self.to_temp(M.Cast(value, T.F32), T.F32, span) if T.is_half(ty) else value

    def half_method_through_f32(self, name: str, recv: M.Operand, args, rty: T.FloatTy,
                                ret: T.Ty, span, intrinsic: str) -> M.Operand:
        """`h.sqrt()` as `f16::from_f32(h.to_f32().sqrt())`."""
        recv32 = self.widen_half(recv, rty, span)
        args32 = [self.widen_half(a, rty, span) for a in args]
        if ret != rty:
            return self.to_temp(M.Intrinsic(intrinsic, (recv32, *args32)), ret, span)
        r = self.to_temp(M.Intrinsic(intrinsic, (recv32, *args32)), T.F32, span)
        return self.to_temp(M.Cast(r, rty), rty, span)

    def half_num_method(self, o, name: str, recv, args, ty: T.FloatTy, ret: T.Ty):
        """The `core` float methods of lower/num_methods.py on a half, through f32."""
        span = o.span
        if name in ("is_normal", "is_subnormal"):  # the half's own normal range
            mag = self.to_temp(M.Intrinsic("abs", (self.widen_half(recv, ty, span),)),
                               T.F32, span)
            smallest = M.Constant(T.float_min_positive(ty), T.F32)
            if name == "is_subnormal":
                nonzero = o.bin("gt", mag, M.Constant(0.0, T.F32), T.F32)
                return o.both(nonzero, o.bin("lt", mag, smallest, T.F32))
            normal = o.bin("ge", mag, smallest, T.F32)
            return o.both(normal, o.bin("lt", mag, M.Constant(float("inf"), T.F32), T.F32))
        ret32 = T.F32 if ret == ty else ret
        if ret32 is not ret and ret != ty or T.is_half(ret32):
            return self.unsupported(span, f"`{name}` on `{ty}` is")
        r = self.float_method(o, name, self.widen_half(recv, ty, span),
                              [self.widen_half(a, ty, span) for a in args], T.F32, ret32)
        return o.cast(r, ty) if ret == ty else r

    def half_conversion_method(self, name: str, recv: M.Operand, rty: T.FloatTy, span):
        """`h.to_f32()`, `h.to_f64()` (the `half` crate's spellings of `h as f32`)."""
        target = T.F32 if name == "to_f32" else T.F64
        return self.to_temp(M.Cast(recv, target), target, span)

    def api_half_from(self, e: ast.CallExpr, api) -> M.Operand:
        """`f16::from_f32(x)`, `bf16::from_f64(x)`: `x as f16`, rounded once to nearest even;
        `f16::from_bits(b)`: the half with these bits."""
        (x,) = self.lower_in_order(e.args)
        ty = self.ty(e)
        if api.name == "from_bits":
            return self.to_temp(M.Intrinsic("bitcast", (x,)), ty, e.span)
        return self.to_temp(M.Cast(x, ty), ty, e.span)
