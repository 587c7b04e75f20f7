"""The consumers that pick one item of an iterator chain (lower/iterators.py runs the loop):

    it.find(|x| p)          result = None;  loop { if p(&x) { result = Some(x); break } }
    it.nth(n)               k = 0;  loop { if k == n { result = Some(x); break }; k += 1 }
    it.last()               loop { result = Some(x) }
    it.max_by_key(|x| f)    loop { k = f(&x); if result is None || k >= best { .. } }

As in core: `nth(n)` pulls n + 1 items (the adapters' closures run for the skipped ones), the
key closure of `max_by_key`/`min_by_key` runs once per item, `max_by_key` keeps the last of
the greatest keys and `min_by_key` the first of the least.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from .iter_items import Item, ref_item

SEARCH_CONSUMERS = ("find", "nth", "last", "max_by_key", "min_by_key")


class SearchConsumerLowering:

    def _none_result(self, e: ast.MethodCallExpr) -> int:
        out_ty = self.ty(e)
        result = self.new_local(out_ty, e.span)
        self.assign(M.Place(result), M.Aggregate(out_ty, (), 0), e.span)
        return result

    def _take(self, result: int, out_ty: T.Ty, item: Item, span) -> None:
        op = self.item_operand(item, span)
        self.assign(M.Place(result), M.Aggregate(out_ty, (op,), 1), span)

    def consume_find(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        span, out_ty = e.span, self.ty(e)
        result = self._none_result(e)
        env = self.closure_arg_env(e.args[0])

        def test(item: Item, loop) -> None:
            place = self.item_place(item, span)
            ok = self.call_closure(env, [ref_item(place, T.RefTy(item.ty, False))], span)
            hit = self.new_block()
            self.switch_bool(ok, hit, loop.latch, span)
            self.cur = hit
            self.assign(M.Place(result), M.Aggregate(out_ty, (self.read(place, item.ty),), 1),
                        span)
            self.goto(loop.stop, span)
        self.run_chain(chain, test, span)
        return self.read(M.Place(result), out_ty)

    def consume_nth(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        span, out_ty = e.span, self.ty(e)
        result = self._none_result(e)
        n = self.fixed(self.lower_expr(e.args[0]), T.USIZE, span)
        index = self.accumulator(T.USIZE, M.Constant(0, T.USIZE), span)

        def test(item: Item, loop) -> None:
            at = self.to_temp(M.BinaryOp("eq", M.Copy(M.Place(index)), n), T.BOOL, span)
            hit, miss = self.new_block(), self.new_block()
            self.switch_bool(at, hit, miss, span)
            self.cur = hit
            self._take(result, out_ty, item, span)
            self.goto(loop.stop, span)
            self.cur = miss
            self.bump(index, "add", span)
        self.run_chain(chain, test, span)
        return self.read(M.Place(result), out_ty)

    def consume_last(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        span, out_ty = e.span, self.ty(e)
        result = self._none_result(e)
        self.run_chain(chain, lambda item, loop: self._take(result, out_ty, item, span), span)
        return self.read(M.Place(result), out_ty)

    def consume_max_by_key(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self._extreme_by_key(e, chain, "ge")

    def consume_min_by_key(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self._extreme_by_key(e, chain, "lt")

    def _extreme_by_key(self, e: ast.MethodCallExpr, chain, better: str) -> M.Operand:
        span, out_ty = e.span, self.ty(e)
        env = self.closure_arg_env(e.args[0])
        key_ty = self.env_ret(env)
        result = self._none_result(e)
        found = self.accumulator(T.BOOL, M.Constant(False, T.BOOL), span)
        best = self.accumulator(key_ty, self.zero_of(key_ty), span)

        def keep(item: Item, loop) -> None:
            place = self.item_place(item, span)
            key = self.fixed(self.call_closure(env, [ref_item(place, T.RefTy(item.ty, False))],
                                               span), key_ty, span)
            take, test = self.new_block(), self.new_block()
            self.switch_bool(M.Copy(M.Place(found)), test, take, span)
            self.cur = test
            cmp = self.to_temp(M.BinaryOp(better, key, M.Copy(M.Place(best))), T.BOOL, span)
            self.switch_bool(cmp, take, loop.latch, span)
            self.cur = take
            self.assign(M.Place(best), M.Use(key), span)
            self.assign(M.Place(found), M.Use(M.Constant(True, T.BOOL)), span)
            self.assign(M.Place(result), M.Aggregate(out_ty, (self.read(place, item.ty),), 1),
                        span)
        self.run_chain(chain, keep, span)
        return self.read(M.Place(result), out_ty)


__all__ = ["SearchConsumerLowering", "SEARCH_CONSUMERS"]
