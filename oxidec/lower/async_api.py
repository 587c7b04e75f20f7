"""cuda-oxide's `barrier::` library functions made of mbarrier operations:

    mbarrier_arrive_expect_tx(b, _tx_count, bytes)   t = mbarrier.arrive.expect_tx(b, bytes)
                                                      (`_tx_count` is evaluated and ignored,
                                                      as in cuda-oxide)
    mbarrier_arrive_and_wait(b)                       t = mbarrier.arrive(b);
                                                      mbarrier.wait(b, t)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn
from ..mir import syntax as M
from .builder import UNIT_CONST


class AsyncApiLowering:

    def api_mbarrier_arrive_expect_tx(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        bar, _, nbytes = self.lower_in_order(e.args)
        return self.to_temp(M.Intrinsic("mbarrier.arrive.expect_tx", (bar, nbytes)), T.U64,
                            e.span)

    def api_mbarrier_arrive_and_wait(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        (bar,) = self.lower_in_order(e.args)
        bar = self.to_temp(M.Use(bar), self.ty(e.args[0]), e.span)  # used twice
        token = self.to_temp(M.Intrinsic("mbarrier.arrive", (bar,)), T.U64, e.span)
        self.push(M.Effect("mbarrier.wait", (bar, token), e.span))
        return UNIT_CONST
