"""Lowering hooks of the Hopper API items that are more than one MIR operation
(registry: oxidec/device_api/wgmma.py).

    wgmma_mma_m64n64k16_f32_bf16(&mut acc, da, db)
        ->  _r = &mut acc;                      // (ref_elim makes these `acc` itself)
            (*_r) = Intrinsic("wgmma.mma_async...", copy (*_r), da, db);

The accumulator is read and written in one assignment, so the emitter gives the
instruction the accumulator's own registers.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..device_api.wgmma import MMAS
from ..mir import syntax as M
from .builder import UNIT_CONST


class HopperApiLowering:
    def api_wgmma_mma(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        acc_ref, da, db = self.lower_in_order(e.args)
        ref_ty = self.ty(e.args[0])
        r = self.operand_local(acc_ref, ref_ty, e.span)
        acc = M.Place(r).project(M.Deref())
        self.assign(acc, M.Intrinsic(MMAS[api.name], (M.Copy(acc), da, db)), e.span)
        return UNIT_CONST

    def api_wgmma_wait_group(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        (n,) = self.r.generic_values.get(e, (0,))
        self.push(M.Effect("wgmma.wait_group", (M.Constant(n, T.U32),), e.span))
        return UNIT_CONST

    def api_zero_accumulator(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        row_ty = T.ArrayTy(T.F32, 8)
        row = self.to_temp(M.Repeat(M.Constant(0.0, T.F32), 8), row_ty, e.span)
        return self.to_temp(M.Repeat(row, 4), T.ArrayTy(row_ty, 4), e.span)
