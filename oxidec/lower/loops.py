"""`for` loops over ranges and arrays, including full unrolling of constant-trip loops.

    for_expr: label? "for" pattern "in" expr block
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..mir import syntax as M
from .builder import UNIT_CONST, LoopScope

class ForLowering:

    def lower_for_expr(self, e: ast.ForExpr) -> M.Operand:
        it = e.iter
        step: ast.Expr | None = None
        if isinstance(it, ast.MethodCallExpr) and it.method == "step_by":
            step = it.args[0]
            it = it.receiver
        if isinstance(it, ast.RangeExpr):
            self.lower_range_loop(e, it, step)
        elif isinstance(self.ty(it), T.ArrayTy):
            self.lower_array_loop(e, it)
        elif self.is_iterable(e.iter):  # lower/iterators.py
            self.lower_iter_for(e)
        else:
            self.unsupported(e.iter.span, "this iterator is")
        return UNIT_CONST

    def lower_range_loop(self, e: ast.ForExpr, rng: ast.RangeExpr,
                         step_expr: ast.Expr | None) -> None:
        # for i in lo..hi: iter = lo; head: if iter < hi { i = iter; body; iter += 1 } ...
        # Inclusive ranges and step_by test before stepping, so `0..=u8::MAX` and large
        # steps terminate instead of wrapping around.
        # The range and the step are evaluated once, in that order, before the first trip
        # (a body that changes `hi`'s or the step's variable does not change the loop).
        ty = self.ty(rng.lo)
        bounds = self.lower_in_order((rng.lo, rng.hi) + ((step_expr,) if step_expr else ()))
        lo = bounds[0]
        hi_op = self.freeze(bounds[1], ty, rng.hi.span, (e.body,))
        step = None
        if step_expr is not None:
            step = self.freeze(bounds[2], T.USIZE, step_expr.span, (e.body,))
        trips = self.unrolled_trips(e, rng, lo, hi_op, step)
        if trips is not None:
            self.lower_unrolled_loop(e, trips, ty)
            return
        hi = self.operand_local(hi_op, ty, rng.hi.span)
        it = self.new_local(ty, e.span, None, True)
        self.assign(M.Place(it), M.Use(lo), e.span)
        if step is not None:
            step = M.Copy(M.Place(self.operand_local(step, T.USIZE, e.span)))
            nonzero = self.to_temp(M.BinaryOp("ne", step, M.Constant(0, T.USIZE)), T.BOOL, e.span)
            self.check(nonzero, "assertion failed: step != 0", e.span)
        unsigned = T.IntTy(ty.bits, False) if isinstance(ty, T.IntTy) else ty
        head, body, latch, exit_bb = (self.new_block() for _ in range(4))
        cur, end = M.Copy(M.Place(it)), M.Copy(M.Place(hi))
        self.goto(head, e.span)
        self.cur = head
        in_range = self.to_temp(M.BinaryOp("le" if rng.inclusive else "lt", cur, end), T.BOOL,
                                e.span)
        self.switch_bool(in_range, body, exit_bb, e.span)
        self.cur = body
        self.bind_pattern(e.pat, cur, ty, e.pat.span)
        self.loops.append(LoopScope(e.label, exit_bb, latch, None))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(latch, e.span)
        self.cur = latch
        if step is None and not rng.inclusive:
            one = M.Constant(1, ty)
            self.assign(M.Place(it), M.BinaryOp("add", cur, one), e.span)
            self.goto(head, e.span)
        else:
            # Exit when the step would reach past hi: step > hi - iter (as unsigned).
            dist = self.to_temp(M.BinaryOp("sub", end, cur), ty, e.span)
            if unsigned != ty:
                dist = self.to_temp(M.Cast(dist, unsigned), unsigned, e.span)
            if step is None:
                step_u = M.Constant(1, unsigned)
            elif unsigned != T.USIZE:
                step_u = self.to_temp(M.Cast(step, unsigned), unsigned, e.span)
            else:
                step_u = step
            # exclusive: stop when dist <= step; inclusive: stop when dist < step.
            stop_op = "lt" if rng.inclusive else "le"
            past = self.to_temp(M.BinaryOp(stop_op, dist, step_u), T.BOOL, e.span)
            advance = self.new_block()
            self.switch_bool(past, exit_bb, advance, e.span)
            self.cur = advance
            step_t = step_u if unsigned == ty else self.to_temp(M.Cast(step_u, ty), ty, e.span)
            self.assign(M.Place(it), M.BinaryOp("add", cur, step_t), e.span)
            self.goto(head, e.span)
        self.cur = exit_bb

    # Full unrolling of constant-trip loops: `#[unroll]` asks for it (up to MAX_UNROLL
    # iterations); without the attribute, loops of at most AUTO_UNROLL iterations unroll.
    # `#[unroll(N)]` unrolls fully when N covers the trip count, else leaves the loop alone.
    # On `while` and `loop` (stmt_attrs.py puts it there) `#[unroll]` is accepted as a hint
    # and nothing more: a counted `while` is unrolled by passes/loop_unroll.py with its own
    # factor, whatever N says; other loops are not unrolled.
    # Unrolling here, with one fresh local per iteration for the loop variable, turns the
    # loop variable into a constant in each copy, so indexing becomes ConstIndex and the
    # bounds checks fold away (the tiled matmul's inner loop).
    MAX_UNROLL = 256
    AUTO_UNROLL = 4

    def unrolled_trips(self, e: ast.ForExpr, rng: ast.RangeExpr, lo: M.Operand, hi: M.Operand,
                       step: M.Operand | None) -> list[int] | None:
        consts = (lo, hi) + ((step,) if step is not None else ())
        if not all(isinstance(c, M.Constant) and isinstance(c.value, int) for c in consts):
            return None
        s = step.value if step is not None else 1
        if s <= 0:
            return None
        stop = hi.value + 1 if rng.inclusive else hi.value
        # the trip count by arithmetic: a list (or len() of a range past sys.maxsize) of
        # `0..100000000` would cost gigabytes before the limit below refuses it
        count = max(0, -(-(stop - lo.value) // s))
        unroll = next((a for a in e.attrs if a.name == "unroll"), None)
        if unroll is None:
            limit = self.AUTO_UNROLL
        elif not unroll.args:
            limit = self.MAX_UNROLL
        else:
            arg = unroll.args[0]
            limit = arg.value if isinstance(arg, ast.LitExpr) and arg.kind == "int" else \
                self.r.unroll_counts.get((self.sig.name, id(unroll)), 0)
        if count > min(limit, self.MAX_UNROLL):
            return None
        return list(range(lo.value, stop, s))

    def lower_unrolled_loop(self, e: ast.ForExpr, trips: list[int], ty: T.Ty) -> None:
        exit_bb = self.new_block()
        for value in trips:
            # Every copy gets fresh locals for the loop variable (it stays constant) and for
            # the bindings of the body: a rolled loop's `let r = &mut v;` is one definition of
            # `r`, and the reference checks must see one per copy, not a reassigned `r`.
            outer = set(self.var_local)
            for var in self.pattern_vars(e.pat):
                self.var_local.pop(id(var), None)
            next_bb = self.new_block()
            self.bind_pattern(e.pat, M.Constant(value, ty), ty, e.pat.span)
            for var in self.pattern_vars(e.pat):
                self.forget_known(self.var_local[id(var)])
            self.loops.append(LoopScope(e.label, exit_bb, next_bb, None))
            self.lower_block(e.body)
            self.loops.pop()
            for key in set(self.var_local) - outer:
                del self.var_local[key]
            self.goto(next_bb, e.span)
            self.cur = next_bb
        self.goto(exit_bb, e.span)
        self.cur = exit_bb

    def lower_array_loop(self, e: ast.ForExpr, array_expr: ast.Expr) -> None:
        aty = self.ty(array_expr)
        # the loop walks the array as it was when the loop started (Rust moves or copies it)
        value = self.freeze(self.lower_expr(array_expr), aty, array_expr.span, (e.body,))
        arr = self.operand_local(value, aty, array_expr.span)
        i = self.new_local(T.USIZE, e.span)
        self.assign(M.Place(i), M.Use(M.Constant(0, T.USIZE)), e.span)
        head, body, latch, exit_bb = (self.new_block() for _ in range(4))
        self.goto(head, e.span)
        self.cur = head
        ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(i)), M.Constant(aty.length, T.USIZE)),
                          T.BOOL, e.span)
        self.switch_bool(ok, body, exit_bb, e.span)
        self.cur = body
        elem = self.read(M.Place(arr, (M.Index(i),)), aty.elem)
        self.bind_pattern(e.pat, elem, aty.elem, e.pat.span)
        self.loops.append(LoopScope(e.label, exit_bb, latch, None))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(latch, e.span)
        self.cur = latch
        self.assign(M.Place(i), M.BinaryOp("add", M.Copy(M.Place(i)), M.Constant(1, T.USIZE)),
                    e.span)
        self.goto(head, e.span)
        self.cur = exit_bb
