"""The consumers that end an iterator chain (lower/iterators.py): each is the loop of the chain
with an accumulator, and stops early where Rust's does (`any`, `all`, `position`).

    a.iter().sum()                       acc = 0;  loop { acc = acc + *x }
    it.fold(init, |acc, x| f)            acc = init;  loop { acc = f(acc, x) }
    it.max()                             found = false;  loop { if !found || x >= best { .. } }

As in Rust: `sum` of integers wraps like `+` does in oxidec (no overflow checks), `sum` of
floats starts at -0.0 (so an empty sum is -0.0), `min` keeps the first of equal minima and
`max` the last of equal maxima, `position` counts the items before the first match.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from .iter_items import Item, ref_item, value_item
from .iter_search import SEARCH_CONSUMERS
from .iter_windows import chunks_remainder

CONSUMERS = ("sum", "product", "fold", "min", "max", "any", "all", "count", "position",
             "for_each", "max_by", "min_by") + SEARCH_CONSUMERS


class ConsumerLowering:

    def lower_iter_method(self, e: ast.MethodCallExpr) -> M.Operand:
        """A method call in an iterator chain: a consumer runs the chain here; an adapter
        or a source only ever appears inside a chain (typeck sees to it)."""
        m = self.r.iter_methods.get(e)
        if self.r.methods.get(e) == ("iter", "remainder"):
            return chunks_remainder(self, e)
        if m not in CONSUMERS:
            return self.unsupported(e.span, "an iterator used as a value is")
        chain = self.build_chain(e.receiver)
        if chain is None:
            return self.zero_of(self.ty(e))
        return getattr(self, "consume_" + ("sum" if m == "product" else m))(e, chain)

    def lower_array_from_fn(self, e: ast.CallExpr, n: int) -> M.Operand:
        """`core::array::from_fn(f)`: the array built element by element, f(0) first.
        Up to FROM_FN_UNROLL elements the calls are unrolled, so that each element is a
        constant index (the array stays in registers); beyond, a loop."""
        ty = self.ty(e)
        span = e.span
        env = self.closure_arg_env(e.args[0])
        out = self.new_local(ty, span)
        if n <= self.FROM_FN_UNROLL:
            elems = []
            for i in range(n):
                v = self.call_closure(env, [M.Constant(i, T.USIZE)], span)
                elems.append(self.operand_local(v, ty.elem, span))
            self.assign(M.Place(out), M.Aggregate(ty, tuple(
                self.read(M.Place(t), ty.elem) for t in elems)), span)
            return self.read(M.Place(out), ty)
        if not T.is_scalar(ty.elem):
            return self.unsupported(span, f"`from_fn` of more than {self.FROM_FN_UNROLL} "
                                    "non-scalar elements is")
        self.assign(M.Place(out), M.Repeat(self.zero_of(ty.elem), n), span)
        i = self.accumulator(T.USIZE, M.Constant(0, T.USIZE), span)
        head, body, done = self.new_block(), self.new_block(), self.new_block()
        self.goto(head, span)
        self.cur = head
        more = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(i)), M.Constant(n, T.USIZE)),
                            T.BOOL, span)
        self.switch_bool(more, body, done, span)
        self.cur = body
        k = self.fixed(M.Copy(M.Place(i)), T.USIZE, span)
        v = self.call_closure(env, [k], span)
        self.assign(M.Place(out, (M.Index(i),)), M.Use(v), span)
        self.bump(i, "add", span)
        self.goto(head, span)
        self.cur = done
        return self.read(M.Place(out), ty)

    FROM_FN_UNROLL = 64

    def accumulator(self, ty: T.Ty, init: M.Operand, span) -> int:
        acc = self.new_local(ty, span)
        self.assign(M.Place(acc), M.Use(init), span)
        return acc

    def consume_sum(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        ty = self.ty(e)
        span = e.span
        if e.method == "sum":
            init = M.Constant(-0.0, ty) if isinstance(ty, T.FloatTy) else M.Constant(0, ty)
            op = "add"
        else:
            init = M.Constant(1.0 if isinstance(ty, T.FloatTy) else 1, ty)
            op = "mul"
        acc = self.accumulator(ty, init, span)

        def add(item: Item, loop) -> None:
            v = self.item_value(item, span)
            self.assign(M.Place(acc), M.BinaryOp(op, M.Copy(M.Place(acc)), v), span)
        self.run_chain(chain, add, span)
        return M.Copy(M.Place(acc))

    def consume_fold(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        ty = self.ty(e)
        span = e.span
        acc = self.accumulator(ty, self.lower_expr(e.args[0]), span)
        env = self.closure_arg_env(e.args[1])

        def step(item: Item, loop) -> None:
            out = self.call_closure(env, [self.read(M.Place(acc), ty), item], span)
            if self.cur is not None:
                self.assign(M.Place(acc), M.Use(out), span)
        self.run_chain(chain, step, span)
        return self.read(M.Place(acc), ty)

    def consume_count(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        span = e.span
        acc = self.accumulator(T.USIZE, M.Constant(0, T.USIZE), span)
        self.run_chain(chain, lambda item, loop: self.bump(acc, "add", span), span)
        return M.Copy(M.Place(acc))

    def consume_for_each(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        env = self.closure_arg_env(e.args[0])
        self.run_chain(chain, lambda item, loop: self.call_closure(env, [item], e.span), e.span)
        return M.Constant(None, T.UNIT)

    def consume_min(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self.consume_extreme(e, chain, "lt")

    def consume_max(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self.consume_extreme(e, chain, "ge")

    def consume_max_by(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self.consume_extreme(e, chain, "ge", by=self.closure_arg_env(e.args[0]))

    def consume_min_by(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self.consume_extreme(e, chain, "lt", by=self.closure_arg_env(e.args[0]))

    def consume_extreme(self, e: ast.MethodCallExpr, chain, better: str, by=None) -> M.Operand:
        out_ty = self.ty(e)
        item_ty = out_ty.args[0]
        span = e.span
        found = self.accumulator(T.BOOL, M.Constant(False, T.BOOL), span)
        # initialised although unread until `found`: a second write keeps copy_prop from
        # forwarding `best = x` to the next iteration, whose x is another item
        best = self.accumulator(item_ty, self.zero_of(item_ty), span)
        value_ty = item_ty.inner if isinstance(item_ty, T.RefTy) else item_ty

        def keep(item: Item, loop) -> None:
            op = self.item_operand(item, span)
            x = self.operand_local(op, item_ty, span)
            take, test = self.new_block(), self.new_block()
            self.switch_bool(M.Copy(M.Place(found)), test, take, span)
            self.cur = test
            xv, bv = M.Place(x), M.Place(best)
            if isinstance(item_ty, T.RefTy):
                xv, bv = xv.project(M.Deref()), bv.project(M.Deref())
            if by is None:
                cmp = self.to_temp(M.BinaryOp(better, self.read(xv, value_ty),
                                              self.read(bv, value_ty)), T.BOOL, span)
            else:  # core's max_by: the last of the greatest; min_by: the first of the least
                ref = T.RefTy(item_ty, False)
                order = self.call_closure(by, [ref_item(M.Place(x), ref),
                                               ref_item(M.Place(best), ref)], span)
                d = self.to_temp(M.Discriminant(M.Place(self.operand_local(
                    order, T.CMP_ORDERING, span))), T.CMP_ORDERING.tag, span)
                cmp = self.to_temp(M.BinaryOp(better, d, M.Constant(0, T.CMP_ORDERING.tag)),
                                   T.BOOL, span)
            self.switch_bool(cmp, take, loop.latch, span)
            self.cur = take
            self.assign(M.Place(best), M.Use(self.read(M.Place(x), item_ty)), span)
            self.assign(M.Place(found), M.Use(M.Constant(True, T.BOOL)), span)
        self.run_chain(chain, keep, span)
        result = self.new_local(out_ty, span)
        yes, no, join = self.new_block(), self.new_block(), self.new_block()
        self.switch_bool(M.Copy(M.Place(found)), yes, no, span)
        self.cur = yes
        self.assign(M.Place(result), M.Aggregate(out_ty, (self.read(M.Place(best), item_ty),),
                                                 1), span)
        self.goto(join, span)
        self.cur = no
        self.assign(M.Place(result), M.Aggregate(out_ty, (), 0), span)
        self.goto(join, span)
        self.cur = join
        return self.read(M.Place(result), out_ty)

    def consume_any(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self.consume_search(e, chain, True)

    def consume_all(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        return self.consume_search(e, chain, False)

    def consume_search(self, e: ast.MethodCallExpr, chain, stop_on: bool) -> M.Operand:
        """any: true at the first item that satisfies; all: false at the first that fails."""
        span = e.span
        result = self.accumulator(T.BOOL, M.Constant(not stop_on, T.BOOL), span)
        env = self.closure_arg_env(e.args[0])

        def test(item: Item, loop) -> None:
            ok = self.call_closure(env, [item], span)
            hit = self.new_block()
            if stop_on:
                self.switch_bool(ok, hit, loop.latch, span)
            else:
                self.switch_bool(ok, loop.latch, hit, span)
            self.cur = hit
            self.assign(M.Place(result), M.Use(M.Constant(stop_on, T.BOOL)), span)
            self.goto(loop.stop, span)
        self.run_chain(chain, test, span)
        return M.Copy(M.Place(result))

    def consume_position(self, e: ast.MethodCallExpr, chain) -> M.Operand:
        out_ty = self.ty(e)
        span = e.span
        result = self.new_local(out_ty, span)
        self.assign(M.Place(result), M.Aggregate(out_ty, (), 0), span)
        index = self.accumulator(T.USIZE, M.Constant(0, T.USIZE), span)
        env = self.closure_arg_env(e.args[0])

        def test(item: Item, loop) -> None:
            ok = self.call_closure(env, [item], span)
            hit, miss = self.new_block(), self.new_block()
            self.switch_bool(ok, hit, miss, span)
            self.cur = hit
            self.assign(M.Place(result), M.Aggregate(out_ty, (M.Copy(M.Place(index)),), 1),
                        span)
            self.goto(loop.stop, span)
            self.cur = miss
            self.bump(index, "add", span)
        self.run_chain(chain, test, span)
        return self.read(M.Place(result), out_ty)


__all__ = ["ConsumerLowering", "CONSUMERS", "value_item"]
