"""The predicate adapters of an iterator chain (lower/iterators.py runs them per item):

    take_while(p)    if !p(&x) { stop }                  (no further item is pulled)
    skip_while(p)    while skipping: if p(&x) { next } else { skipping = false }
    map_while(f)     match f(x) { Some(y) => y, None => stop }
    filter_map(f)    match f(x) { Some(y) => y, None => next }
    inspect(f)       f(&x); x

As in core: `skip_while`'s predicate is not called again once it was false; `take_while`
and `map_while` end the whole chain (a `for` loop too) at the first miss.
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M
from .iter_items import Item, ref_item, value_item

PREDICATE_STAGES = ("take_while", "skip_while", "map_while", "filter_map", "inspect")


class PredicateStageLowering:

    def start_predicate_stage(self, stage) -> None:
        """`skip_while` keeps a flag: still skipping (true until the predicate fails)."""
        if stage.kind == "skip_while":
            stage.state = self.new_local(T.BOOL, stage.span)
            self.assign(M.Place(stage.state), M.Use(M.Constant(True, T.BOOL)), stage.span)

    def run_predicate_stage(self, s, item: Item, loop, go_on) -> None:
        span = s.span
        if s.kind == "inspect":
            self.call_closure(s.env, [self._by_ref(item, span)], span)
            go_on(item)
        elif s.kind == "take_while":
            keep = self.call_closure(s.env, [self._by_ref(item, span)], span)
            yes = self.new_block()
            self.switch_bool(keep, yes, loop.stop, span)
            self.cur = yes
            go_on(item)
        elif s.kind == "skip_while":
            test, passing = self.new_block(), self.new_block()
            self.switch_bool(M.Copy(M.Place(s.state)), test, passing, span)
            self.cur = test
            skip = self.call_closure(s.env, [self._by_ref(item, span)], span)
            done = self.new_block()
            self.switch_bool(skip, loop.latch, done, span)
            self.cur = done
            self.assign(M.Place(s.state), M.Use(M.Constant(False, T.BOOL)), span)
            self.goto(passing, span)
            self.cur = passing
            go_on(item)
        else:  # map_while, filter_map: the closure's Option
            opt_ty = self.env_ret(s.env)
            out = self.operand_local(self.call_closure(s.env, [item], span), opt_ty, span)
            miss = loop.stop if s.kind == "map_while" else loop.latch
            self.test_variant(M.Place(out), opt_ty, 1, miss, span)
            payload = opt_ty.args[0]
            go_on(value_item(self.read(M.Place(out, (M.Field(0, 1),)), payload), payload))

    def _by_ref(self, item: Item, span) -> Item:
        return ref_item(self.item_place(item, span), T.RefTy(item.ty, False))


__all__ = ["PredicateStageLowering", "PREDICATE_STAGES"]
