"""Calls of `const fn`s in constants (array lengths, const items, generic arguments):
the function body is interpreted on compile-time scalars with the MIR folder's exact
arithmetic (consteval.py evaluates each expression).

    const fn square(x: usize) -> usize { x * x }
    const N: usize = square(4) + 1;          // 17, usable as `[f32; N]`

Covered: parameters, `let` (an unsuffixed literal takes the function's return type when it
is numeric), assignment and compound assignment to locals, `if`/`else`, `while`, `loop`
with `break`, `return` (no `for`: as in rustc, it is E0015), blocks, nested const fn calls,
`f32::from_bits`/`f64::from_bits`, `to_bits`, `wrapping_add/sub/mul`. Anything else is
E0080 at the expression, like the rest of consteval.
"""
from __future__ import annotations

from . import ast
from . import types as T

STEP_LIMIT = 100_000


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    def __init__(self, label, value):
        self.label, self.value = label, value


class _Continue(Exception):
    def __init__(self, label):
        self.label = label


class ConstFnMixin:
    """Mixed into ConstEvaluator: `self.env` is the interpreted function's locals."""

    def eval_call(self, e: ast.CallExpr, expected):
        from .consteval import ConstValue
        if not isinstance(e.func, ast.PathExpr):
            self.fail(e)
            return None
        names = e.func.path.names
        if len(names) == 2 and names[0] in ("f32", "f64") and names[1] == "from_bits" \
                and len(e.args) == 1:
            fty = T.SCALARS[names[0]]
            bits = self.eval(e.args[0], T.U32 if fty == T.F32 else T.U64)
            if bits is None:
                return None
            import struct
            fmt = ("<I", "<f") if fty == T.F32 else ("<Q", "<d")
            return ConstValue(struct.unpack(fmt[1], struct.pack(fmt[0], bits.value))[0], fty)
        fn = self._const_fn(e)
        if fn is None:
            return None
        with self.tc.in_scope_of(fn):
            ptys = [self.lower_type(p.ty) for p in fn.params]
            ret = self.lower_type(fn.ret) if fn.ret else T.UNIT
        if len(ptys) != len(e.args):
            self.fail(e, "this call")
            return None
        args = []
        for a, t in zip(e.args, ptys):
            v = self.eval(a, t)
            if v is None:
                return None
            args.append(v)
        frame = {p.pat.name: v for p, v in zip(fn.params, args)
                 if isinstance(p.pat, ast.IdentPat)}
        saved_env, saved_ret = getattr(self, "env", None), getattr(self, "ret_ty", None)
        self.env, self.ret_ty = [frame], ret
        if not saved_env:  # an outermost call: a fresh step budget
            self.steps = 0
        try:
            with self.tc.in_scope_of(fn):
                try:
                    value = self.run_block(fn.body, ret)
                except _Return as r:
                    value = r.value
        except (_Break, _Continue):
            value = None
        finally:
            self.env, self.ret_ty = saved_env, saved_ret
        if value is not None and value.ty != ret:
            value = ConstValue(value.value, ret) if isinstance(value.value, (int, float)) \
                and type(value.ty) is type(ret) else value
        return value

    def _const_fn(self, e: ast.CallExpr):
        res = self.tc.resolve_value_path(e.func.path) if self.tc is not None else None
        d = res.def_ if res is not None else None
        if d is not None and res.assoc is not None:
            d = self.items.assoc.get((d.key, res.assoc))
        if d is None or d.kind != "fn":
            self.fail(e, "this call")
            return None
        if not d.item.is_const:
            self.sink.error("E0015", f"cannot call non-const function `{d.name}` in constants",
                            e.span, "not a `const fn`",
                            notes=["calls in constants are limited to constant functions, "
                                   "tuple structs and tuple variants"],
                            help=f"declare it `const fn {d.name}` if it can be evaluated at "
                                 "compile time")
            return None
        return d.item

    # -- the interpreted body -------------------------------------------------------------
    def lookup_local(self, name: str):
        for scope in reversed(getattr(self, "env", None) or []):
            if name in scope:
                return scope
        return None

    def tick(self, e) -> bool:
        self.steps = getattr(self, "steps", 0) + 1
        if self.steps > STEP_LIMIT:
            self.sink.error("E0080", "evaluation of constant value failed", e.span,
                            "exceeded the interpreter's step limit (an endless loop?)")
            return False
        return True

    def run_block(self, block: ast.Block, expected):
        from .consteval import ConstValue
        self.env.append({})
        try:
            for stmt in block.stmts:
                if isinstance(stmt, ast.LetStmt):
                    if not isinstance(stmt.pat, ast.IdentPat) or stmt.init is None:
                        self.sink.error("E0080", "evaluation of constant value failed",
                                        stmt.span, "only `let name = value;` is evaluated at "
                                        "compile time")
                        raise _Return(None)
                    ty = self.lower_type(stmt.ty) if stmt.ty else self._default_ty(stmt.init)
                    v = self.eval(stmt.init, ty)
                    if v is None:
                        raise _Return(None)
                    self.env[-1][stmt.pat.name] = v
                elif isinstance(stmt, ast.ExprStmt):
                    if self.exec_expr(stmt.expr) is None and not self._unit_expr(stmt.expr):
                        raise _Return(None)
            if block.tail is None:
                return ConstValue(None, T.UNIT)
            return self.exec_expr(block.tail, expected)
        finally:
            self.env.pop()

    def _default_ty(self, init: ast.Expr):
        # the type checker's type of the initialiser, where it checked this code (a const's
        # value is checked before it is evaluated: `let mut i = 0; while i < N` is usize)
        r = getattr(self.tc, "r", None)
        known = r.expr_ty.get(init) if r is not None else None
        if known is not None:
            known = self.tc.deep(known)
            if T.is_scalar(known) or isinstance(known, (T.ArrayTy, T.TupleTy, T.StructTy)):
                return known
        ret = getattr(self, "ret_ty", None)
        if isinstance(init, ast.LitExpr) and not init.suffix:
            if init.kind == "int" and isinstance(ret, T.IntTy):
                return ret
            if init.kind == "float" and isinstance(ret, T.FloatTy):
                return ret
        return None

    @staticmethod
    def _unit_expr(e) -> bool:
        return isinstance(e, (ast.AssignExpr, ast.CompoundAssignExpr, ast.WhileExpr,
                              ast.ForExpr, ast.IfExpr, ast.LoopExpr))

    def exec_expr(self, e: ast.Expr, expected=None):
        """Statements-with-effects inside a const fn; plain expressions go to `eval`."""
        from .consteval import ConstValue
        unit = ConstValue(None, T.UNIT)
        if not self.tick(e):
            raise _Return(None)
        if isinstance(e, (ast.AssignExpr, ast.CompoundAssignExpr)) \
                and isinstance(e.lhs, (ast.IndexExpr, ast.FieldExpr)):
            return self.exec_place_assign(e)  # `t[i] = v`, `s.x += 1`
        if isinstance(e, (ast.AssignExpr, ast.CompoundAssignExpr)):
            if not (isinstance(e.lhs, ast.PathExpr) and len(e.lhs.path.names) == 1):
                self.fail(e.lhs, "this assignment")
                raise _Return(None)
            name = e.lhs.path.names[0]
            scope = self.lookup_local(name)
            if scope is None:
                self.fail(e.lhs, "this assignment")
                raise _Return(None)
            cur = scope[name]
            if isinstance(e, ast.AssignExpr):
                v = self.eval(e.rhs, cur.ty)
            else:
                fake = ast.BinaryExpr(op=e.op, lhs=e.lhs, rhs=e.rhs, op_span=e.op_span,
                                      span=e.span)
                v = self.eval(fake, cur.ty)
            if v is None:
                raise _Return(None)
            scope[name] = v
            return unit
        if isinstance(e, ast.ReturnExpr):
            v = self.eval(e.value, self.ret_ty) if e.value is not None else unit
            raise _Return(v)
        if isinstance(e, ast.BreakExpr):
            v = self.eval(e.value, None) if e.value is not None else unit
            raise _Break(e.label, v)
        if isinstance(e, ast.ContinueExpr):
            raise _Continue(e.label)
        if isinstance(e, ast.BlockExpr) and not e.unsafe:
            return self.run_block(e.block, expected)
        if isinstance(e, ast.IfExpr):
            c = self.eval(e.cond, T.BOOL)
            if c is None:
                raise _Return(None)
            if c.value:
                return self.run_block(e.then, expected)
            if e.else_ is not None:
                return self.exec_expr(e.else_, expected)
            return unit
        if isinstance(e, (ast.WhileExpr, ast.LoopExpr, ast.ForExpr)):
            return self.exec_loop(e)
        v = self.eval(e, expected)
        if v is None:
            raise _Return(None)
        return v

    def exec_place_assign(self, e):
        from .consteval import ConstValue
        cur = self.eval(e.lhs, None)
        if cur is None:
            raise _Return(None)
        if isinstance(e, ast.AssignExpr):
            v = self.eval(e.rhs, cur.ty)
        else:
            v = self.eval(ast.BinaryExpr(op=e.op, lhs=e.lhs, rhs=e.rhs, op_span=e.op_span,
                                         span=e.span), cur.ty)
        if v is None:
            raise _Return(None)
        if not self.assign_place(e.lhs, v):  # const_aggregates.py
            self.fail(e.lhs, "this assignment")
            raise _Return(None)
        return ConstValue(None, T.UNIT)

    def eval_in_frame(self, e: ast.Expr, expected):
        """A block (or `if`, `loop`) as a constant's whole value: run it like a const fn's
        body, with a frame of its own."""
        saved_env, saved_ret = getattr(self, "env", None), getattr(self, "ret_ty", None)
        self.env, self.ret_ty, self.steps = [{}], expected, 0
        try:
            return self.exec_expr(e, expected)
        except (_Return, _Break, _Continue):
            return None
        finally:
            self.env, self.ret_ty = saved_env, saved_ret

    def exec_loop(self, e):
        from .consteval import ConstValue
        unit = ConstValue(None, T.UNIT)
        items = None
        if isinstance(e, ast.ForExpr):  # rustc has no `for` in const fns (iterators are traits)
            self.sink.error("E0015", "cannot use `for` loop on a range in constant functions",
                            e.iter.span, "`for` is not allowed in a `const fn`",
                            help="write the loop with `while`")
            raise _Return(None)
        if isinstance(e, ast.ForExpr):
            r = e.iter
            if not (isinstance(r, ast.RangeExpr) and r.lo is not None and r.hi is not None
                    and isinstance(e.pat, (ast.IdentPat, ast.WildPat))):
                self.fail(e.iter, "this loop")
                raise _Return(None)
            if isinstance(r.lo, ast.LitExpr) and not r.lo.suffix:  # `0..n`: n's type
                hi = self.eval(r.hi, None)
                lo = self.eval(r.lo, hi.ty) if hi else None
            else:
                lo = self.eval(r.lo, None)
                hi = self.eval(r.hi, lo.ty) if lo else None
            if lo is None or hi is None:
                raise _Return(None)
            items = (ConstValue(k, lo.ty) for k in range(lo.value, hi.value + r.inclusive))
        while True:
            if not self.tick(e):
                raise _Return(None)
            if isinstance(e, ast.WhileExpr):
                c = self.eval(e.cond, T.BOOL)
                if c is None:
                    raise _Return(None)
                if not c.value:
                    return unit
            self.env.append({})
            try:
                if items is not None:
                    item = next(items, None)
                    if item is None:
                        return unit
                    if isinstance(e.pat, ast.IdentPat):
                        self.env[-1][e.pat.name] = item
                self.run_block(e.body, None)
            except _Break as b:
                if b.label is None or b.label == e.label:
                    return b.value
                raise
            except _Continue as c:
                if c.label is not None and c.label != e.label:
                    raise
            finally:
                self.env.pop()
