"""`ManagedBarrier` (device_api/managed_barrier.py) expanded into the mbarrier operations:

    b.init(n)        if linear tid == 0 { mbarrier.init(b.ptr, n) }; sync_threads   (init_by:
                     thread t); the Ready handle is the same pointer
    b.arrive()       BarrierToken(mbarrier.arrive(b.ptr))
    b.wait(t)        mbarrier.wait(b.ptr, t.0)  (a spin on test_wait)
    b.inval()        mbarrier.inval(b.ptr)      (inval_by(t): if linear tid == t)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from .builder import UNIT_CONST

BAR_PTR = T.PtrTy(T.BARRIER, True)


class BarrierApiLowering:

    def api_managed_from_static(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        (p,) = self.lower_in_order(e.args)
        ty = self.ty(e)
        return self.to_temp(M.Aggregate(ty, (p,)), ty, e.span)

    def _linear_tid(self, span) -> M.Operand:
        def b(op, x, y):
            return self.to_temp(M.BinaryOp(op, x, y), T.U32, span)
        zy = b("add", b("mul", self.special("tid.z", span), self.special("ntid.y", span)),
               self.special("tid.y", span))
        return b("add", b("mul", zy, self.special("ntid.x", span)), self.special("tid.x", span))

    def _only_thread(self, thread: M.Operand, effect: M.Effect, span) -> None:
        """`effect` in the one thread of linear index `thread`."""
        me = self.to_temp(M.BinaryOp("eq", self._linear_tid(span), thread), T.BOOL, span)
        then_bb, join = self.new_block(), self.new_block()
        self.switch_bool(me, then_bb, join, span)
        self.cur = then_bb
        self.push(effect)
        self.goto(join, span)
        self.cur = join

    def api_managed_barrier(self, e: ast.MethodCallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        place = self.lower_place(e.receiver)
        ty = self.ty(e.receiver)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        ptr = self.to_temp(M.Use(M.Copy(place.project(M.Field(0)))), BAR_PTR, span)
        args = list(self.lower_in_order(e.args))
        name, ret = api.name, self.ty(e)
        if name in ("init", "init_by"):
            thread = args[1] if name == "init_by" else M.Constant(0, T.U32)
            self._only_thread(thread, M.Effect("mbarrier.init", (ptr, args[0]), span), span)
            self.push(M.Effect("sync_threads", (), span))
            return self.to_temp(M.Aggregate(ret, (ptr,)), ret, span)
        if name in ("inval", "inval_by"):
            effect = M.Effect("mbarrier.inval", (ptr,), span)
            if name == "inval_by":
                self._only_thread(args[0], effect, span)
            else:
                self.push(effect)
            return self.to_temp(M.Aggregate(ret, (ptr,)), ret, span)
        if name == "as_ptr":
            return self.to_temp(M.Cast(ptr, ret), ret, span)
        if name in ("arrive", "arrive_expect_tx"):
            op = "mbarrier.arrive" if name == "arrive" else "mbarrier.arrive.expect_tx"
            token = self.to_temp(M.Intrinsic(op, (ptr, *args)), T.U64, span)
            return self.to_temp(M.Aggregate(T.BARRIER_TOKEN, (token,)), T.BARRIER_TOKEN, span)
        if name == "try_wait_parity":
            return self.to_temp(M.Intrinsic("mbarrier.try_wait.parity", (ptr, args[0])), T.BOOL,
                                span)
        token = self.operand_local(args[0], T.BARRIER_TOKEN, span)
        raw = self.to_temp(M.Use(M.Copy(M.Place(token, (M.Field(0),)))), T.U64, span)
        if name == "wait":
            self.push(M.Effect("mbarrier.wait", (ptr, raw), span))
            return UNIT_CONST
        return self.to_temp(M.Intrinsic(f"mbarrier.{name}", (ptr, raw)), T.BOOL, span)

    def api_barrier_token(self, e, api: ApiFn) -> M.Operand:
        """`token.raw()` / `BarrierToken::from_raw(bits)`."""
        if api.name == "raw":
            place = self.lower_place(e.receiver)
            if isinstance(self.ty(e.receiver), T.RefTy):
                place = place.project(M.Deref())
            return self.to_temp(M.Use(M.Copy(place.project(M.Field(0)))), T.U64, e.span)
        (bits,) = self.lower_in_order(e.args)
        return self.to_temp(M.Aggregate(T.BARRIER_TOKEN, (bits,)), T.BARRIER_TOKEN, e.span)
