"""Library items of cuda-oxide expanded into the MIR operations they are made of: the
packed-pair unpacking `convert::cvt_f32x2_f16x2` (two halves), and the warp functions: `popc`,
`is_elected_sync`, `live_lanes_1d` and the `reduce_*` butterflies, expanded here into the
MIR operations they are made of (so the simulator and the emitter need nothing new).

    warp::reduce_sum_f32(v)              v += shuffle_xor(v, 16), 8, 4, 2, 1: every lane
                                         gets the sum of the 32 lanes
    warp::reduce_sum_f32_partial(v, n)   over the first n lanes (mask (1 << n) - 1), which
                                         must be the lanes that call it: a down-tree with
                                         masked shuffles, then lane 0's total to all n
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M

COMBINE = {"sum": ("binary", "add"), "max": ("intrinsic", "max"), "min": ("intrinsic", "min")}


class WarpApiLowering:

    def api_coords_u32(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`index_1d_u32(ctx)`: blockIdx.x * blockDim.x + threadIdx.x in u32;
        `coord_2d_u32(ctx)`: (row, col) the same way in y and x."""
        self.lower_in_order(e.args)
        span = e.span

        def axis(a: str) -> M.Operand:
            prod = self.to_temp(M.BinaryOp("mul", self.special(f"ctaid.{a}", span),
                                           self.special(f"ntid.{a}", span)), T.U32, span)
            return self.to_temp(M.BinaryOp("add", prod, self.special(f"tid.{a}", span)),
                                T.U32, span)
        ty = self.ty(e)
        parts = (axis("x"),) if api.name == "index_1d_u32" else (axis("y"), axis("x"))
        return self.to_temp(M.Aggregate(ty, parts), ty, span)

    def api_coord_field(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        place = self.lower_place(e.receiver)
        if isinstance(self.ty(e.receiver), T.RefTy):
            place = place.project(M.Deref())
        field = 1 if api.name == "col" else 0
        return self.to_temp(M.Use(M.Copy(place.project(M.Field(field)))), T.U32, e.span)

    def api_unpack_pair(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`convert::cvt_f32x2_f16x2(p) -> (lo, hi)` (and bf16x2): both halves as f32."""
        (p,) = self.lower_in_order(e.args)
        fmt = "bf16" if "bf16" in api.name else "f16"
        lo, hi = (self.to_temp(M.Intrinsic(f"unpack.{fmt}.{h}", (p,)), T.F32, e.span)
                  for h in ("lo", "hi"))
        ty = self.ty(e)
        return self.to_temp(M.Aggregate(ty, (lo, hi)), ty, e.span)

    def api_prmt_two(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """`prmt::prmt_ecl(a, selector)` and the other one-source modes: `b` is 0."""
        a, sel = self.lower_in_order(e.args)
        mode = api.name.removeprefix("prmt_")
        return self.to_temp(M.Intrinsic(f"prmt.{mode}", (a, M.Constant(0, T.U32), sel)), T.U32,
                            e.span)

    def api_warp_popc(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        (p,) = self.lower_in_order(e.args)
        mask = self.to_temp(M.Intrinsic("ballot", (p,)), T.U32, e.span)
        return self.to_temp(M.Intrinsic("popc", (mask,)), T.U32, e.span)

    def api_is_elected_sync(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        (mask,) = self.lower_in_order(e.args)
        pair = T.TupleTy((T.U32, T.BOOL))
        t = self.temp(pair, e.span)
        self.assign(M.Place(t), M.Intrinsic("elect_sync", (mask,)), e.span)
        return self.to_temp(M.Use(M.Copy(M.Place(t, (M.Field(1),)))), T.BOOL, e.span)

    def api_live_lanes_1d(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        """min(32, blockDim.x - (threadIdx.x & !31)): the lanes of this warp in the launch."""
        span = e.span
        tid = self.special("tid.x", span)
        base = self.to_temp(M.BinaryOp("bitand", tid, M.Constant(0xFFFF_FFE0, T.U32)), T.U32,
                            span)
        rest = self.to_temp(M.BinaryOp("sub", self.special("ntid.x", span), base), T.U32, span)
        return self.to_temp(M.Intrinsic("min", (rest, M.Constant(32, T.U32))), T.U32, span)

    def _combine(self, kind: str, a: M.Operand, b: M.Operand, ty: T.Ty, span) -> M.Operand:
        how, name = COMBINE[kind]
        rv = M.BinaryOp(name, a, b) if how == "binary" else M.Intrinsic(name, (a, b))
        return self.to_temp(rv, ty, span)

    def api_warp_reduce(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        kind = api.name.split("_")[1]
        ty = self.ty(e)
        span = e.span
        (v,) = self.lower_in_order(e.args)
        for off in (16, 8, 4, 2, 1):
            other = self.to_temp(M.Intrinsic("shuffle_xor", (v, M.Constant(off, T.U32))), ty,
                                 span)
            v = self._combine(kind, v, other, ty, span)
        return v

    def api_warp_reduce_partial(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        kind = api.name.split("_")[1]
        ty = self.ty(e)
        span = e.span
        v, live = self.lower_in_order(e.args)
        u32 = T.U32

        def tmp(rv, t=u32):
            return self.to_temp(rv, t, span)

        low = tmp(M.BinaryOp("bitand", live, M.Constant(31, u32)))
        bit = tmp(M.BinaryOp("shl", M.Constant(1, u32), low))
        prefix = tmp(M.BinaryOp("sub", bit, M.Constant(1, u32)))
        full = tmp(M.BinaryOp("ge", live, M.Constant(32, u32)), T.BOOL)
        mask = tmp(M.Intrinsic("select", (full, M.Constant(0xFFFF_FFFF, u32), prefix)))
        lane = self.special("laneid", span)
        for off in (16, 8, 4, 2, 1):
            k = M.Constant(off, u32)
            other = tmp(M.Intrinsic("shuffle_down_sync", (mask, v, k)), ty)
            src = tmp(M.BinaryOp("add", lane, k))
            ok = tmp(M.BinaryOp("lt", src, live), T.BOOL)
            both = self._combine(kind, v, other, ty, span)
            v = tmp(M.Intrinsic("select", (ok, both, v)), ty)
        return tmp(M.Intrinsic("shuffle_sync", (mask, v, M.Constant(0, u32))), ty)
