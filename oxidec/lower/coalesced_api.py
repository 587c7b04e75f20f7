"""`coalesced_threads()` (device_api/coop.py): a snapshot of the active lanes, mask = activemask:

    size           popc(mask)              thread_rank   popc(mask & lanemask_lt)
    sync           bar.warp.sync mask      all / any     vote.sync under mask
    ballot(p)      vote.sync.ballot under mask, its lane bits packed to ranks (bit r: rank r)
    match_any/all  match.sync under mask, packed the same way
    shfl(v, r)     from the lane of rank r (the r-th set bit of mask, found by halving)
    shfl_xor(v, m) / shfl_down(v, d) / shfl_up(v, d)   from lane ^ m, lane + d, lane - d
    every shuffle: a source outside the group (or a rank >= size) gives the own value
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from .builder import UNIT_CONST


class CoalescedLowering:

    def api_coalesced(self, e, api: ApiFn) -> M.Operand:
        span = e.span
        if api.name == "coalesced_threads":
            mask = self.to_temp(M.Intrinsic("active_mask", ()), T.U32, span)
            return self.to_temp(M.Aggregate(T.COALESCED, (mask,)), T.COALESCED, span)
        place = self.lower_place(e.receiver)
        if isinstance(self.ty(e.receiver), T.RefTy):
            place = place.project(M.Deref())
        mask = self.to_temp(M.Use(M.Copy(place.project(M.Field(0)))), T.U32, span)
        args = list(self.lower_in_order(e.args))
        name = api.name

        def u(op, a, b, ty=T.U32):
            return self.to_temp(M.BinaryOp(op, a, b), ty, span)

        def k(v):
            return M.Constant(v, T.U32)
        if name == "raw_mask":
            return mask
        if name == "size":
            return self.to_temp(M.Intrinsic("popc", (mask,)), T.U32, span)
        lane = self.special("laneid", span)
        if name == "thread_rank":
            below = u("bitand", mask, self.special("lanemask_lt", span))
            return self.to_temp(M.Intrinsic("popc", (below,)), T.U32, span)
        if name == "sync":
            self.push(M.Effect("warp_sync", (mask,), span))
            return UNIT_CONST
        if name in ("all", "any"):
            return self.to_temp(M.Intrinsic(f"{name}_sync", (mask, args[0])), T.BOOL, span)
        if name == "ballot" or name.startswith("match_"):  # lanes -> ranks (bit r: rank r)
            op = "ballot_sync" if name == "ballot" else name.removesuffix("_i64") + "_sync"
            bits = self.to_temp(M.Intrinsic(op, (mask, args[0])), T.U32, span)
            return self.compress_bits(bits, mask, span)
        value, b = args
        kind = name.removesuffix("_f32")
        if kind == "shfl":  # the lane of rank b: the b-th set bit of mask, by halving
            pos, left = k(0), b
            for width in (16, 8, 4, 2, 1):
                window = u("shl", k((1 << width) - 1), pos)
                here = self.to_temp(M.Intrinsic("popc", (u("bitand", mask, window),)), T.U32,
                                    span)
                past = u("ge", left, here, T.BOOL)
                pos = self.to_temp(M.Intrinsic("select", (past, u("add", pos, k(width)), pos)),
                                   T.U32, span)
                left = self.to_temp(M.Intrinsic("select", (past, u("sub", left, here), left)),
                                    T.U32, span)
            size = self.to_temp(M.Intrinsic("popc", (mask,)), T.U32, span)
            src, ok = pos, u("lt", b, size, T.BOOL)
        else:
            if kind == "shfl_xor":
                src, fits = u("bitxor", lane, b), u("lt", u("bitxor", lane, b), k(32), T.BOOL)
            elif kind == "shfl_down":
                src = u("add", lane, b)
                fits = u("lt", src, k(32), T.BOOL)
            else:
                src, fits = u("sub", lane, b), u("ge", lane, b, T.BOOL)
            bit = u("bitand", u("shr", mask, u("bitand", src, k(31))), k(1))
            ok = u("bitand", fits, u("ne", bit, k(0), T.BOOL), T.BOOL)
        src = self.to_temp(M.Intrinsic("select", (ok, src, lane)), T.U32, span)
        ty = T.F32 if name.endswith("_f32") else T.U32
        return self.to_temp(M.Intrinsic("shuffle_sync", (mask, value, src)), ty, span)

    def compress_bits(self, x: M.Operand, m: M.Operand, span) -> M.Operand:
        """The bits of x at the set bits of m, packed to the low end (PEXT; Hacker's Delight
        7-4 `compress`: five rounds of moving bits right by 1, 2, 4, 8, 16)."""
        def u(op, a, b):
            return self.to_temp(M.BinaryOp(op, a, b), T.U32, span)

        def k(v):
            return M.Constant(v, T.U32)

        def inv(a):
            return self.to_temp(M.UnaryOp("not", a), T.U32, span)
        x = u("bitand", x, m)
        mk = u("shl", inv(m), k(1))  # ones where a bit has a zero of m to its right, counted
        for i in range(5):
            mp = u("bitxor", mk, u("shl", mk, k(1)))  # parallel suffix (prefix from the right)
            for s in (2, 4, 8, 16):
                mp = u("bitxor", mp, u("shl", mp, k(s)))
            mv = u("bitand", mp, m)  # the bits that move by 2^i
            m = u("bitor", u("bitxor", m, mv), u("shr", mv, k(1 << i)))
            t = u("bitand", x, mv)
            x = u("bitor", u("bitxor", x, t), u("shr", t, k(1 << i)))
            mk = u("bitand", mk, inv(mp))
        return x
