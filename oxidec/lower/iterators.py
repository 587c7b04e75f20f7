"""Iterator chains as plain loops: `for x in a.iter().map(f)`, `(0..n).filter(p).count()`.

    for_expr: label? "for" pattern "in" expr block      (an iterator chain, `&array`, a slice)
    method_call_expr: expr "." IDENT "(" args ")"     (a chain ended by a consumer)

A chain is its base, then push stages. The base is indexed: item j of `count` is built from
each source's element k = first + j*step (or first - j*step once reversed), so the
index-like adapters (`skip`, `take`, `step_by`, `rev`, a `zip` of two indexed sources) only
change first/step/count before the loop starts. `chain` makes a base of two chains, walked
one after the other. The adapters after the first push stage (`map`, `filter`,
`enumerate`, and `take`/`skip`/`step_by`/`zip` after those) run in the loop body, each
handing its item on to the next, the consumer (or the `for` body) last:

    for (i, x) in a.iter().enumerate() { .. }

    _b = &a;  _j = 0;
    head:  if _j < N goto body else exit
    body:  i = _j;  x = &(*_b)[_j];  ..;  goto latch      (`continue` goes to latch)
    latch: _j = _j + 1;  goto head

which after ref_elim is the hand-written index loop. Rust's order is kept: the chain and its
adapters' arguments are evaluated once, source first, before the loop; closures run per item
in the order Rust's `next` calls them (`rev` runs `map`'s closure from the back; `take` stops
before pulling another item; `zip` pulls its first iterator, then the second).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from .builder import LoopScope
from .iter_consumers import ConsumerLowering
from .iter_search import SearchConsumerLowering
from .iter_stages import PREDICATE_STAGES, PredicateStageLowering
from .iter_items import Item, ItemLowering, ref_item, tuple_item, value_item
from .iter_windows import WINDOW_SOURCES, window_chain
from ..device_api.views import ITER_VIEWS

USIZE = T.USIZE


@dataclass
class Leaf:
    """One indexed source: element k = first + j*step (first - j*step when `back`)."""
    first: M.Operand
    step: M.Operand
    back: bool
    element: object  # (k: M.Operand) -> Item


@dataclass
class IndexBase:
    count: M.Operand
    leaves: list[Leaf]
    shape: object  # a leaf number, or a tuple of shapes (a zip)


@dataclass
class ChainBase:
    left: "Chain"
    right: "Chain"


@dataclass
class Stage:
    kind: str
    span: Span
    env: object = None  # the closure (map, filter)
    state: int | None = None  # its counter local (enumerate, take, skip, step_by, zip)
    arg: M.Operand | None = None
    other: IndexBase | None = None  # zip
    on_base: IndexBase | None = None  # enumerate right on an indexed base: item j is index j
    from_back: bool = False


@dataclass
class Chain:
    base: IndexBase | ChainBase
    stages: list[Stage] = field(default_factory=list)


@dataclass
class LoopCtx:
    latch: int  # the next item (`continue`, a filtered-out item)
    stop: int  # after the whole chain (`break`, `take` done, a consumer's answer)
    j: M.Operand | None = None
    count: M.Operand | None = None


class IteratorLowering(ItemLowering, ConsumerLowering, SearchConsumerLowering,
                       PredicateStageLowering):

    def is_iterable(self, e: ast.Expr) -> bool:
        ty = self.ty(e)
        return isinstance(ty, T.IterTy) or isinstance(ty, T.RefTy) and isinstance(
            ty.inner, (T.ArrayTy, T.SliceTy)) or T.view_kind(ty) == "ZipView32"

    # -- `for` over a chain ----------------------------------------------------------
    def lower_iter_for(self, e: ast.ForExpr) -> None:
        chain = self.build_chain(e.iter)
        if chain is None:
            return

        def body(item: Item, loop: LoopCtx) -> None:
            self.fresh_locals(e.pat, e.body)
            self.bind_item(e.pat, item, e.pat.span)
            self.loops.append(LoopScope(e.label, loop.stop, loop.latch, None))
            self.lower_block(e.body)
            self.loops.pop()
        self.run_chain(chain, body, e.span)

    def run_chain(self, chain: Chain, sink, span: Span) -> None:
        """The loop(s) of `chain`, feeding each item to `sink(item, loop)`; the cursor ends
        after them."""
        stop = self.new_block()
        self.emit_chain(chain, sink, [], stop, span)
        self.goto(stop, span)
        self.cur = stop

    # -- building the chain (evaluates the sources and the adapters' arguments) ---------
    def build_chain(self, e: ast.Expr) -> Chain | None:
        if isinstance(e, ast.MethodCallExpr):
            m = self.r.iter_methods.get(e)
            if m is None and self.r.methods.get(e) == ("range", "step_by"):
                m = "step_by"
            if m in WINDOW_SOURCES:  # `s.chunks_exact(4)` (iter_windows.py)
                return window_chain(self, e, m)
            if m is not None:
                rty = self.ty(e.receiver)
                if T.view_kind(rty) in ITER_VIEWS:  # `row.iter()`, `zip.into_iter()`
                    chain = self.view_chain(e.receiver, e.span)
                    return chain if m in ("iter", "into_iter") else self.adapt(chain, e, m)
                if m in ("iter", "iter_mut", "into_iter") and not isinstance(
                        rty, (T.IterTy, T.RangeTy)):
                    return self.source_chain(e.receiver, m, e.span)
                chain = self.build_chain(e.receiver)
                if chain is None or m in ("iter", "iter_mut", "into_iter"):
                    return chain
                return self.adapt(chain, e, m)
        if isinstance(e, ast.RangeExpr) and e.lo is not None and e.hi is not None:
            return self.range_chain(e)
        ty = self.ty(e)
        if isinstance(ty, T.RefTy) and isinstance(ty.inner, (T.ArrayTy, T.SliceTy)):
            return self.source_chain(e, "iter_mut" if ty.mutable else "iter", e.span)
        if isinstance(ty, T.ArrayTy):
            return self.source_chain(e, "into_iter", e.span)
        if T.view_kind(ty) == "ZipView32":
            return self.view_chain(e, e.span)
        self.unsupported(e.span, "this iterator is")
        return None

    def fixed(self, op: M.Operand, ty: T.Ty, span: Span) -> M.Operand:
        """`op` as evaluated now, whatever the loop body later writes."""
        if isinstance(op, M.Constant):
            return op
        return M.Copy(M.Place(self.operand_local(self.to_temp(M.Use(op), ty, span), ty, span)))

    def range_chain(self, e: ast.RangeExpr) -> Chain:
        ty = self.ty(e.lo)
        lo, hi = (self.fixed(op, ty, e.span) for op in self.lower_in_order((e.lo, e.hi)))
        unsigned = T.IntTy(ty.bits, False) if isinstance(ty, T.IntTy) else ty
        if isinstance(ty, T.IntTy) and not ty.signed and isinstance(lo, M.Constant) and lo.value == 0 and not e.inclusive:
            count = hi if ty == USIZE else self.to_temp(M.Cast(hi, USIZE), USIZE, e.span)
            return Chain(self.index_base(count, self.range_element(lo, ty, e.span)))
        # count = hi - lo (+ 1 when inclusive) when lo <= hi, else 0
        nonempty = self.to_temp(M.BinaryOp("le" if e.inclusive else "lt", lo, hi), T.BOOL,
                                e.span)
        dist = self.to_temp(M.BinaryOp("sub", hi, lo), ty, e.span)
        if unsigned != ty:
            dist = self.to_temp(M.Cast(dist, unsigned), unsigned, e.span)
        if unsigned != USIZE:
            dist = self.to_temp(M.Cast(dist, USIZE), USIZE, e.span)
        if e.inclusive:
            dist = self.to_temp(M.BinaryOp("add", dist, M.Constant(1, USIZE)), USIZE, e.span)
        count = self.select(nonempty, dist, M.Constant(0, USIZE), USIZE, e.span)
        return Chain(self.index_base(count, self.range_element(lo, ty, e.span)))

    def range_element(self, lo: M.Operand, ty: T.Ty, span: Span):
        """Item k of a range from `lo`: lo + k (in the range's type, wrapping)."""
        def element(k: M.Operand) -> Item:
            kk = k if ty == USIZE else self.to_temp(M.Cast(k, ty), ty, span)
            if isinstance(lo, M.Constant) and lo.value == 0:
                return value_item(kk, ty)
            return value_item(self.to_temp(M.BinaryOp("add", lo, kk), ty, span), ty)
        return element

    def source_chain(self, recv: ast.Expr, m: str, span: Span) -> Chain:
        rty = self.ty(recv)
        place = self.lower_place(recv)
        ty = rty
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        if m == "into_iter" and isinstance(rty, T.ArrayTy):  # by value: a copy, walked
            arr = self.operand_local(self.fixed(self.read(place, ty), ty, span), ty, span)
            count = M.Constant(ty.length, USIZE)

            def element(k: M.Operand) -> Item:
                idx = self.operand_local(k, USIZE, span)
                return value_item(self.read(M.Place(arr, (M.Index(idx),)), ty.elem), ty.elem)
            return Chain(self.index_base(count, element))
        mutable = m == "iter_mut" or (isinstance(rty, T.RefTy) and rty.mutable
                                      and m == "into_iter")
        if isinstance(ty, T.SliceTy):  # the slice reference itself (global memory)
            base = M.Place(place.local, place.projection[:-1])
            count = self.to_temp(M.Len(base), USIZE, span)
        else:  # borrow the array for the loop, as the iterator does in Rust
            bref = self.new_local(T.RefTy(ty, mutable), span, None, False)
            self.assign(M.Place(bref), M.Ref(place, mutable), span)
            place = M.Place(bref, (M.Deref(),))
            count = M.Constant(ty.length, USIZE)
        item_ty = T.RefTy(ty.elem, mutable)

        def element(k: M.Operand) -> Item:
            idx = self.operand_local(k, USIZE, span)
            return ref_item(place.project(M.Index(idx)), item_ty)
        return Chain(self.index_base(count, element))

    def view_chain(self, recv: ast.Expr, span: Span) -> Chain:
        """The elements of a RowView32 / ColView32 (`.iter()`) or the pairs of a ZipView32,
        by value: element k at ptr + k (a column's: ptr + k * stride)."""
        ty = self.ty(recv)
        place = self.lower_place(recv)
        while isinstance(ty, T.RefTy):
            place, ty = place.project(M.Deref()), ty.inner
        view = self.operand_local(self.fixed(self.read(place, ty), ty, span), ty, span)
        ptr_ty = T.PtrTy(ty.elem, True)
        fields = {"RowView32": (0, None, 1, None), "ColView32": (0, None, 1, 2),
                  "ZipView32": (0, 1, 2, 3)}[ty.kind]

        def fld(k, fty) -> M.Operand:
            return self.to_temp(M.Use(M.Copy(M.Place(view, (M.Field(k),)))), fty, span)
        first, second, n, stride = fields
        count = self.to_temp(M.Cast(fld(n, T.U32), USIZE), USIZE, span)
        step = None if stride is None else self.operand_local(
            self.to_temp(M.Cast(fld(stride, T.U32), USIZE), USIZE, span), USIZE, span)

        def at(k: M.Operand, f: int, strided: bool) -> Item:
            off = self.mul(k, M.Copy(M.Place(step)), span) if strided else k
            p = self.operand_local(self.to_temp(M.Intrinsic("ptr_add", (fld(f, ptr_ty), off)),
                                                ptr_ty, span), ptr_ty, span)
            return value_item(self.read(M.Place(p, (M.Deref(),)), ty.elem), ty.elem)

        def element(k: M.Operand) -> Item:
            if second is None:
                return at(k, first, step is not None)
            return tuple_item((at(k, first, False), at(k, second, True)))
        return Chain(self.index_base(count, element))

    @staticmethod
    def index_base(count: M.Operand, element) -> IndexBase:
        return IndexBase(count, [Leaf(M.Constant(0, USIZE), M.Constant(1, USIZE), False,
                                      element)], 0)

    def adapt(self, chain: Chain, e: ast.MethodCallExpr, m: str) -> Chain | None:
        span = e.span
        base = chain.base if not chain.stages and isinstance(chain.base, IndexBase) else None
        if m in ("step_by", "take", "skip"):
            n = self.fixed(self.lower_expr(e.args[0]), USIZE, e.args[0].span)
            if m == "step_by":
                nz = self.to_temp(M.BinaryOp("ne", n, M.Constant(0, USIZE)), T.BOOL, span)
                self.check(nz, "assertion failed: step != 0", span)
            if base is not None:
                getattr(self, "fold_" + m)(base, n, span)
                return chain
            stage = Stage(m, span, arg=n, state=self.new_local(USIZE, span))
            start = M.Constant(0, USIZE) if m == "step_by" else n
            self.assign(M.Place(stage.state), M.Use(start), span)
            chain.stages.append(stage)
            return chain
        if m == "rev":
            return self.rev_chain(chain, e)
        if m in ("map", "filter") + PREDICATE_STAGES:
            stage = Stage(m, span, env=self.closure_arg_env(e.args[0]))
            self.start_predicate_stage(stage)  # iter_stages.py
            chain.stages.append(stage)
            return chain
        if m in ("copied", "cloned"):
            chain.stages.append(Stage("copied", span))
            return chain
        if m == "enumerate":
            stage = Stage(m, span, on_base=base)
            if base is None:
                stage.state = self.new_local(USIZE, span)
                self.assign(M.Place(stage.state), M.Use(M.Constant(0, USIZE)), span)
            chain.stages.append(stage)
            return chain
        if m == "zip":
            other = self.build_chain(e.args[0])
            if other is None:
                return None
            if other.stages or not isinstance(other.base, IndexBase):
                self.unsupported(e.args[0].span, "`zip` with an iterator that has adapters "
                                 "other than `rev`, `skip`, `take` and `step_by` is")
                return None
            if base is not None:  # both indexed: one loop over the shorter
                count = self.umin(base.count, other.base.count, span)
                shift = len(base.leaves)
                return Chain(IndexBase(count, base.leaves + other.base.leaves,
                                       (base.shape, _shifted(other.base.shape, shift))))
            stage = Stage(m, span, other=other.base, state=self.new_local(USIZE, span))
            self.assign(M.Place(stage.state), M.Use(M.Constant(0, USIZE)), span)
            chain.stages.append(stage)
            return chain
        if m == "chain":
            other = self.build_chain(e.args[0])
            return None if other is None else Chain(ChainBase(chain, other))
        self.unsupported(e.method_span, f"the iterator method `{m}` is")
        return None

    # -- index arithmetic on an indexed base (before the loop) --------------------------
    def fold_skip(self, base: IndexBase, n: M.Operand, span: Span) -> None:
        n = self.umin(n, base.count, span)
        for leaf in base.leaves:
            leaf.first = self.along(leaf, n, span)
        base.count = self.to_temp(M.BinaryOp("sub", base.count, n), USIZE, span)

    def fold_take(self, base: IndexBase, n: M.Operand, span: Span) -> None:
        base.count = self.umin(base.count, n, span)

    def fold_step_by(self, base: IndexBase, s: M.Operand, span: Span) -> None:
        # ceil(count / s) items: count == 0 ? 0 : (count - 1) / s + 1
        if not (isinstance(s, M.Constant) and s.value == 1):
            nonempty = self.to_temp(M.BinaryOp("ne", base.count, M.Constant(0, USIZE)), T.BOOL,
                                    span)
            last = self.to_temp(M.BinaryOp("sub", base.count, M.Constant(1, USIZE)), USIZE, span)
            q = self.to_temp(M.BinaryOp("div", last, s), USIZE, span)
            q1 = self.to_temp(M.BinaryOp("add", q, M.Constant(1, USIZE)), USIZE, span)
            base.count = self.select(nonempty, q1, M.Constant(0, USIZE), USIZE, span)
            for leaf in base.leaves:
                leaf.step = self.mul(leaf.step, s, span)

    def fold_rev(self, base: IndexBase, span: Span) -> None:
        # the last item first: first' = first +- (count - 1) * step (unused when count == 0)
        last = self.to_temp(M.BinaryOp("sub", base.count, M.Constant(1, USIZE)), USIZE, span)
        for leaf in base.leaves:
            leaf.first = self.along(leaf, last, span)
            leaf.back = not leaf.back

    def rev_chain(self, chain: Chain, e: ast.MethodCallExpr) -> Chain | None:
        """`rev`: the same chain walked from the back (Rust's `next_back` through each
        adapter); only adapters that walk back item by item can be under it."""
        for stage in chain.stages:
            if stage.kind not in ("map", "filter", "copied", "filter_map", "inspect") and not (
                    stage.kind == "enumerate" and stage.on_base is not None):
                self.unsupported(e.method_span, f"`rev` after `{stage.kind}` is")
                return None
            stage.from_back = not stage.from_back
        if isinstance(chain.base, IndexBase):
            self.fold_rev(chain.base, e.span)
            return chain
        left = self.rev_chain(chain.base.left, e)
        right = self.rev_chain(chain.base.right, e)
        if left is None or right is None:
            return None
        chain.base = ChainBase(right, left)
        return chain

    # -- small MIR helpers ---------------------------------------------------------
    def along(self, leaf: Leaf, n: M.Operand, span: Span) -> M.Operand:
        """leaf.first moved n steps in its direction."""
        d = self.mul(n, leaf.step, span)
        if isinstance(d, M.Constant) and d.value == 0:
            return leaf.first
        if isinstance(leaf.first, M.Constant) and leaf.first.value == 0 and not leaf.back:
            return d
        return self.to_temp(M.BinaryOp("sub" if leaf.back else "add", leaf.first, d), USIZE,
                            span)

    def mul(self, a: M.Operand, b: M.Operand, span: Span) -> M.Operand:
        for x, y in ((a, b), (b, a)):
            if isinstance(x, M.Constant) and x.value == 1:
                return y
            if isinstance(x, M.Constant) and x.value == 0:
                return x
        return self.to_temp(M.BinaryOp("mul", a, b), USIZE, span)

    def umin(self, a: M.Operand, b: M.Operand, span: Span) -> M.Operand:
        less = self.to_temp(M.BinaryOp("lt", a, b), T.BOOL, span)
        return self.select(less, a, b, USIZE, span)

    def select(self, cond: M.Operand, a: M.Operand, b: M.Operand, ty: T.Ty,
               span: Span) -> M.Operand:
        """cond ? a : b (a branch; the passes make it a `selp` where they can)."""
        if isinstance(cond, M.Constant):
            return a if cond.value else b
        out = self.new_local(ty, span)
        yes, no, join = self.new_block(), self.new_block(), self.new_block()
        self.switch_bool(cond, yes, no, span)
        for bb, v in ((yes, a), (no, b)):
            self.cur = bb
            self.assign(M.Place(out), M.Use(v), span)
            self.goto(join, span)
        self.cur = join
        return M.Copy(M.Place(out))

    # -- the loops -------------------------------------------------------------------
    def emit_chain(self, chain: Chain, sink, checks: list, stop: int, span: Span,
                   half: bool = False) -> None:
        """The loop(s) of `chain`. Its own stages that end it (`take` done, `take_while`,
        `map_while`, a `zip` run out) go to its own end: `stop` for the whole chain, and for
        a `half` of a `.chain(..)` a block after its loop, where the next half starts. The
        sink (the consumer, the `for` body) keeps the loop it was given, whose `stop` leaves
        everything."""
        end = self.new_block() if half else stop
        checks = checks + [(s, end) for s in chain.stages if s.kind == "take"]

        def feed(item: Item, loop: LoopCtx) -> None:
            own = LoopCtx(loop.latch, end, loop.j, loop.count)
            self.run_stages(chain.stages, 0, item, own, lambda out, _own: sink(out, loop))
        if isinstance(chain.base, ChainBase):
            self.emit_chain(chain.base.left, feed, checks, stop, span, half=True)
            self.emit_chain(chain.base.right, feed, checks, stop, span, half=True)
        else:
            self.emit_index_loop(chain.base, feed, checks, stop, span)
        if half:
            self.goto(end, span)
            self.cur = end

    def emit_index_loop(self, base: IndexBase, feed, checks: list, stop: int,
                        span: Span) -> None:
        """`checks`: (a `take` stage, where to go once it is done)."""
        j = self.new_local(USIZE, span)
        self.assign(M.Place(j), M.Use(M.Constant(0, USIZE)), span)
        head, body, latch, done = (self.new_block() for _ in range(4))
        self.goto(head, span)
        self.cur = head
        for take, done_target in checks:  # `take(n)` done: no further item is pulled
            more = self.to_temp(M.BinaryOp("ne", M.Copy(M.Place(take.state)),
                                           M.Constant(0, USIZE)), T.BOOL, span)
            go = self.new_block()
            self.switch_bool(more, go, done_target, span)
            self.cur = go
        jv = M.Copy(M.Place(j))
        ok = self.to_temp(M.BinaryOp("lt", jv, base.count), T.BOOL, span)
        self.switch_bool(ok, body, done, span)
        self.cur = body
        item = self.index_item(base, base.shape, jv, span)
        feed(item, LoopCtx(latch, stop, jv, base.count))
        self.goto(latch, span)
        self.cur = latch
        self.assign(M.Place(j), M.BinaryOp("add", jv, M.Constant(1, USIZE)), span)
        self.goto(head, span)
        self.cur = done

    def index_item(self, base: IndexBase, shape, j: M.Operand, span: Span) -> Item:
        if isinstance(shape, tuple):
            return tuple_item(self.index_item(base, s, j, span) for s in shape)
        leaf = base.leaves[shape]
        return leaf.element(self.along(leaf, j, span))

    def run_stages(self, stages: list[Stage], i: int, item: Item, loop: LoopCtx, sink) -> None:
        if i == len(stages):
            sink(item, loop)
            return
        s = stages[i]
        span = s.span

        def go_on(next_item: Item) -> None:
            self.run_stages(stages, i + 1, next_item, loop, sink)
        if s.kind == "map":
            out = self.call_closure(s.env, [item], span)
            go_on(value_item(out, self.env_ret(s.env)))
        elif s.kind == "filter":
            ref = ref_item(self.item_place(item, span), T.RefTy(item.ty, False))
            keep = self.call_closure(s.env, [ref], span)
            yes = self.new_block()
            self.switch_bool(keep, yes, loop.latch, span)
            self.cur = yes
            go_on(item)
        elif s.kind in PREDICATE_STAGES:
            self.run_predicate_stage(s, item, loop, go_on)  # iter_stages.py
        elif s.kind == "copied":
            go_on(value_item(self.item_value(item, span), item.ty.inner))
        elif s.kind == "enumerate":
            if s.on_base is not None:
                index = loop.j
                if s.from_back:
                    last = self.to_temp(M.BinaryOp("sub", loop.count, M.Constant(1, USIZE)),
                                        USIZE, span)
                    index = self.to_temp(M.BinaryOp("sub", last, loop.j), USIZE, span)
            else:
                index = self.fixed(M.Copy(M.Place(s.state)), USIZE, span)
                self.bump(s.state, "add", span)
            go_on(tuple_item((value_item(index, USIZE), item)))
        elif s.kind == "take":
            self.bump(s.state, "sub", span)
            go_on(item)
        elif s.kind in ("skip", "step_by"):
            # skip: drop while the counter is not 0; step_by: pass when it is 0, then wait
            # step - 1 items
            zero = self.to_temp(M.BinaryOp("eq", M.Copy(M.Place(s.state)),
                                           M.Constant(0, USIZE)), T.BOOL, span)
            pass_bb, drop_bb = self.new_block(), self.new_block()
            self.switch_bool(zero, pass_bb, drop_bb, span)
            self.cur = drop_bb
            self.bump(s.state, "sub", span)
            self.goto(loop.latch, span)
            self.cur = pass_bb
            if s.kind == "step_by":
                wait = self.to_temp(M.BinaryOp("sub", s.arg, M.Constant(1, USIZE)), USIZE, span)
                self.assign(M.Place(s.state), M.Use(wait), span)
            go_on(item)
        elif s.kind == "zip":
            jv = M.Copy(M.Place(s.state))
            more = self.to_temp(M.BinaryOp("lt", jv, s.other.count), T.BOOL, span)
            yes = self.new_block()
            self.switch_bool(more, yes, loop.stop, span)
            self.cur = yes
            other = self.index_item(s.other, s.other.shape, self.fixed(jv, USIZE, span), span)
            self.bump(s.state, "add", span)
            go_on(tuple_item((item, other)))

    def bump(self, local: int, op: str, span: Span) -> None:
        self.assign(M.Place(local), M.BinaryOp(op, M.Copy(M.Place(local)),
                                               M.Constant(1, USIZE)), span)


def _shifted(shape, by: int):
    if isinstance(shape, tuple):
        return tuple(_shifted(s, by) for s in shape)
    return shape + by
