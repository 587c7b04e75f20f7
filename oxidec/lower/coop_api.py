"""Cooperative groups (device_api/coop.py) expanded into the MIR operations they are made
of. A `WarpTile<N>`'s lanes are those whose lane id has the same bits above log2(N):

    base = lane & !(N - 1)   rank = lane & (N - 1)   mask = ((1 << N) - 1) << base
                                                      (N = 32: the full mask, a constant)
    tile.ballot(p)        (ballot_sync(mask, p) >> base) & ((1 << N) - 1)
    tile.match_any(v)     (match_any_sync(mask, v) >> base) & ((1 << N) - 1) (match_all: same)
    tile.shfl(v, r)       shuffle_sync(mask, v, base + r % N)     (CUDA's rank modulo N)
    tile.shfl_xor(v, m)   shuffle_sync(mask, v, (rank ^ m) < N ? base + (rank ^ m) : lane)
    tile.shfl_down(v, d)  shuffle_sync(mask, v, rank + d < N ? lane + d : lane)
    tile.shfl_up(v, d)    shuffle_sync(mask, v, rank >= d ? lane - d : lane)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from .builder import UNIT_CONST

FULL = 0xFFFF_FFFF


def _u32(v: int) -> M.Constant:
    return M.Constant(v, T.U32)


class CoopApiLowering:

    def api_coop_handle(self, e, api: ApiFn) -> M.Operand:
        """`this_thread_block()`, `block.tiled_partition::<N>()`: a zero-sized handle."""
        ty = self.ty(e)
        return self.to_temp(M.Aggregate(ty, ()), ty, e.span)

    def _bin(self, op: str, a: M.Operand, b: M.Operand, span, ty=T.U32) -> M.Operand:
        return self.to_temp(M.BinaryOp(op, a, b), ty, span)

    def api_coop_block(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        if api.name == "sync":
            self.push(M.Effect("sync_threads", (), span))
            return UNIT_CONST
        nx, ny = self.special("ntid.x", span), self.special("ntid.y", span)
        if api.name == "size":
            return self._bin("mul", self._bin("mul", nx, ny, span), self.special("ntid.z", span),
                             span)
        # thread_rank: the linear thread index, x fastest
        zy = self._bin("add", self._bin("mul", self.special("tid.z", span), ny, span),
                       self.special("tid.y", span), span)
        return self._bin("add", self._bin("mul", zy, nx, span), self.special("tid.x", span),
                         span)

    def api_coop_grid(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        """`this_grid()`'s methods: `sync()` is the grid barrier; ranks are linear, x fastest."""
        span = e.span
        if api.name == "sync":
            self.push(M.Effect("grid_sync", (), span))
            return UNIT_CONST

        def linear(reg: str, ext: str) -> M.Operand:  # x + nx * (y + ny * z)
            zy = self._bin("add", self._bin("mul", self.special(f"{reg}.z", span),
                                            self.special(f"{ext}.y", span), span),
                           self.special(f"{reg}.y", span), span)
            return self._bin("add", self._bin("mul", zy, self.special(f"{ext}.x", span), span),
                             self.special(f"{reg}.x", span), span)

        def count(ext: str) -> M.Operand:
            xy = self._bin("mul", self.special(f"{ext}.x", span), self.special(f"{ext}.y", span),
                           span)
            return self._bin("mul", xy, self.special(f"{ext}.z", span), span)
        if api.name == "num_blocks":
            return count("nctaid")
        if api.name == "block_rank":
            return linear("ctaid", "nctaid")
        if api.name == "size":
            return self._bin("mul", count("nctaid"), count("ntid"), span)
        # thread_rank: block_rank * threads per block + the rank in the block
        return self._bin("add", self._bin("mul", linear("ctaid", "nctaid"), count("ntid"), span),
                         linear("tid", "ntid"), span)

    def api_coop_cluster(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        """`this_cluster()`'s methods: the cluster barrier and the cluster's ranks."""
        span = e.span
        if api.name == "sync":
            self.push(M.Effect("cluster_sync", (), span))
            return UNIT_CONST
        if api.name == "num_blocks":
            return self.special("cluster_nctarank", span)
        if api.name == "block_rank":
            return self.special("cluster_ctarank", span)
        nx, ny = self.special("ntid.x", span), self.special("ntid.y", span)
        per_block = self._bin("mul", self._bin("mul", nx, ny, span),
                              self.special("ntid.z", span), span)
        if api.name == "size":
            return self._bin("mul", self.special("cluster_nctarank", span), per_block, span)
        zy = self._bin("add", self._bin("mul", self.special("tid.z", span), ny, span),
                       self.special("tid.y", span), span)
        rank = self._bin("add", self._bin("mul", zy, nx, span), self.special("tid.x", span),
                         span)
        return self._bin("add", self._bin("mul", self.special("cluster_ctarank", span),
                                          per_block, span), rank, span)

    def api_coop_tile(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        recv = self.ty(e.receiver)
        while isinstance(recv, T.RefTy):
            recv = recv.inner
        n = T.warp_tile_size(recv)
        args = list(self.lower_in_order(e.args))
        name = api.name
        if name == "size":
            return _u32(n)
        lane = self.special("laneid", span)
        rank = self._bin("bitand", lane, _u32(n - 1), span)
        if name == "thread_rank":
            return rank
        base = self._bin("bitand", lane, _u32(FULL & ~(n - 1)), span)
        mask = _u32(FULL) if n == 32 else self._bin("shl", _u32((1 << n) - 1), base, span)
        if name == "sync":
            self.push(M.Effect("warp_sync", (mask,), span))
            return UNIT_CONST
        if name in ("all", "any"):
            return self.to_temp(M.Intrinsic(f"{name}_sync", (mask, args[0])), T.BOOL, span)
        if name in ("ballot",) or name.startswith("match_"):
            op = "ballot_sync" if name == "ballot" else name.removesuffix("_i64") + "_sync"
            bits = self.to_temp(M.Intrinsic(op, (mask, args[0])), T.U32, span)
            if n == 32:
                return bits
            return self._bin("bitand", self._bin("shr", bits, base, span), _u32((1 << n) - 1),
                             span)
        value, b = args
        kind = name.removesuffix("_f32")
        if kind == "shfl":  # rank b mod N, as CUDA's `tile.shfl` (a warp's: shfl.sync.idx)
            src = self._bin("bitand", b, _u32(n - 1), span)
            if n < 32:
                src = self._bin("add", base, src, span)
            ty = T.F32 if name.endswith("_f32") else T.U32
            return self.to_temp(M.Intrinsic("shuffle_sync", (mask, value, src)), ty, span)
        elif kind == "shfl_xor":
            t = self._bin("bitxor", rank, b, span)
            ok = self._bin("lt", t, _u32(n), span, T.BOOL)
            src = self._bin("add", base, t, span)
        elif kind == "shfl_down":
            t = self._bin("add", rank, b, span)
            ok = self._bin("lt", t, _u32(n), span, T.BOOL)
            src = self._bin("add", lane, b, span)
        else:  # shfl_up
            ok = self._bin("ge", rank, b, span, T.BOOL)
            src = self._bin("sub", lane, b, span)
        src = self.to_temp(M.Intrinsic("select", (ok, src, lane)), T.U32, span)
        ty = T.F32 if name.endswith("_f32") else T.U32
        return self.to_temp(M.Intrinsic("shuffle_sync", (mask, value, src)), ty, span)
