"""The cooperative-groups collectives (device_api/coop_ops.py) as masked warp shuffles,
block barriers and shared-memory reads, unrolled (N and the warp count are constants):

    reduce over a tile of N    for off in N/2, .., 1: v = op(v, shuffle_xor_sync(mask, v, off))
    scan over a tile of N      for d in 1, .., N/2:  t = shuffle_up_sync(mask, v, d);
                                                     v = rank >= d ? op(v, t) : v
    block_reduce (W warps)     r = reduce(v); lane 0: SMEM[warp] = r; bar.sync;
                               op(..op(SMEM[0], SMEM[1]).., SMEM[W-1])
    block_scan                 s = scan(v); lane 31: SMEM[warp] = s; bar.sync;
                               warp 0: s; else op(SMEM[0] op .. SMEM[warp-1], s)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..device_api.coop_ops import OPS
from ..mir import syntax as M

FULL = 0xFFFF_FFFF
BINARY = {"sum": "add", "and": "bitand", "or": "bitor", "xor": "bitxor"}


class CoopOpsLowering:

    def _op(self, kind: str, a, b, ty, span) -> M.Operand:
        rv = M.BinaryOp(BINARY[kind], a, b) if kind in BINARY else M.Intrinsic(kind, (a, b))
        return self.to_temp(rv, ty, span)

    def _u(self, op, a, b, span, ty=T.U32) -> M.Operand:
        return self.to_temp(M.BinaryOp(op, a, b), ty, span)

    def _tile_reduce(self, kind, v, ty, n, mask, span) -> M.Operand:
        off = n // 2
        while off:
            k = M.Constant(off, T.U32)
            other = self.to_temp(M.Intrinsic("shuffle_xor_sync", (mask, v, k)), ty, span)
            v = self._op(kind, v, other, ty, span)
            off //= 2
        return v

    def _tile_scan(self, kind, v, ty, n, mask, rank, span) -> M.Operand:
        d = 1
        while d < n:
            k = M.Constant(d, T.U32)
            other = self.to_temp(M.Intrinsic("shuffle_up_sync", (mask, v, k)), ty, span)
            both = self._op(kind, v, other, ty, span)
            ok = self._u("ge", rank, k, span, T.BOOL)
            v = self.to_temp(M.Intrinsic("select", (ok, both, v)), ty, span)
            d *= 2
        return v

    def _store_if(self, cond, place: M.Place, value, span) -> None:
        then_bb, join = self.new_block(), self.new_block()
        self.switch_bool(cond, then_bb, join, span)
        self.cur = then_bb
        self.assign(place, M.Use(value), span)
        self.goto(join, span)
        self.cur = join

    def api_coop_collective(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        args = list(self.lower_in_order(e.args))
        which, n = self.r.generic_values.get(e, (0, 32))
        kind = OPS[list(OPS)[which]][0]
        ty = self.ty(e)
        v = args[1]
        lane = self.special("laneid", span)
        if api.name.startswith("warp"):
            base = self._u("bitand", lane, M.Constant(FULL & ~(n - 1), T.U32), span)
            mask = M.Constant(FULL, T.U32) if n == 32 else \
                self._u("shl", M.Constant((1 << n) - 1, T.U32), base, span)
            if api.name == "warp_reduce":
                return self._tile_reduce(kind, v, ty, n, mask, span)
            rank = self._u("bitand", lane, M.Constant(n - 1, T.U32), span)
            return self._tile_scan(kind, v, ty, n, mask, rank, span)
        full = M.Constant(FULL, T.U32)
        smem = self.operand_local(args[2], self.ty(e.args[2]), e.args[2].span)
        nx, ny = self.special("ntid.x", span), self.special("ntid.y", span)
        zy = self._u("add", self._u("mul", self.special("tid.z", span), ny, span),
                     self.special("tid.y", span), span)
        tid = self._u("add", self._u("mul", zy, nx, span), self.special("tid.x", span), span)
        warp = self.operand_local(self._u("shr", tid, M.Constant(5, T.U32), span), T.U32, span)
        slot = self.operand_local(self.to_temp(M.Cast(M.Copy(M.Place(warp)), T.USIZE),
                                               T.USIZE, span), T.USIZE, span)
        if api.name == "block_reduce":
            mine = self._tile_reduce(kind, v, ty, 32, full, span)
            writer = self._u("eq", lane, M.Constant(0, T.U32), span, T.BOOL)
        else:
            mine = self._tile_scan(kind, v, ty, 32, full, lane, span)
            writer = self._u("eq", lane, M.Constant(31, T.U32), span, T.BOOL)
        self._store_if(writer, M.Place(smem, (M.Deref(), M.Index(slot))), mine, span)
        self.push(M.Effect("sync_threads", (), span))

        def total(w: int) -> M.Operand:
            i = self.operand_local(M.Constant(w, T.USIZE), T.USIZE, span)
            return self.to_temp(M.Use(M.Copy(M.Place(smem, (M.Deref(), M.Index(i))))), ty, span)
        acc = total(0)
        if api.name == "block_reduce":
            for w in range(1, n):
                acc = self._op(kind, acc, total(w), ty, span)
            return acc
        for w in range(1, n):  # the totals of the warps before this one
            more = self._op(kind, acc, total(w), ty, span)
            before = self._u("lt", M.Constant(w, T.U32), M.Copy(M.Place(warp)), span, T.BOOL)
            acc = self.to_temp(M.Intrinsic("select", (before, more, acc)), ty, span)
        first = self._u("eq", M.Copy(M.Place(warp)), M.Constant(0, T.U32), span, T.BOOL)
        return self.to_temp(M.Intrinsic("select", (first, mine,
                                                   self._op(kind, acc, mine, ty, span))),
                            ty, span)
