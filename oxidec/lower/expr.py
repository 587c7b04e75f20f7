"""Expressions without control flow: every subexpression gets a temporary; division and overflow
checks become `Assert` terminators.

    expr: lit_expr | path_expr | unary_expr | binary_expr | cast_expr | assign_expr
        | compound_assign_expr | tuple_expr | array_expr | array_repeat_expr | struct_expr
        | ref_expr | block_expr | index_expr | field_expr
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..mir import layout
from ..mir import syntax as M
from ..syntax.literals import float_literal
from ..span import Span
from ..typeck import ConstRes, LocalRes, StaticRes
from ..typeck.fn_values import FnValueRes
from .builder import BINOPS, UNIT_CONST, LoopScope, snake

class ExprLowering:

    # -- expressions ----------------------------------------------------------
    def lower_expr(self, e: ast.Expr) -> M.Operand:
        self.note_unsafe_use(e)
        method = getattr(self, "lower_" + snake(type(e).__name__))
        return method(e)

    def lower_lit_expr(self, e: ast.LitExpr) -> M.Operand:
        ty = self.ty(e)
        if isinstance(ty, T.CharTy):  # a char is its scalar value
            return M.Constant(ord(e.value), ty)
        if isinstance(ty, T.FloatTy):  # rounded once, from the exact decimal
            return M.Constant(float_literal(e.value, ty), ty)
        if isinstance(ty, T.IntTy):
            return M.Constant(T.wrap_int(int(e.value), ty), ty)
        return M.Constant(e.value, ty)

    def lower_path_expr(self, e: ast.PathExpr) -> M.Operand:
        res = self.r.res.get(e)
        if isinstance(res, LocalRes) and isinstance(res.var.ty, T.ClosureTy) \
                and id(res.var) in self.closure_vars:
            return UNIT_CONST  # a `let`-bound closure moved into a value: zero-sized
        if isinstance(res, LocalRes):
            return self.spanned(self.read(self.var_place(res.var), res.var.ty), e.span)
        if isinstance(res, ConstRes):
            return M.Constant(res.value.value, res.value.ty)
        if e in self.r.variants:
            return self.lower_variant(e, ())
        if isinstance(res, StaticRes) and res.space == "global":  # a device global: read it
            return self.spanned(self.read(self.lower_place(e), res.ty), e.span)
        if isinstance(res, StaticRes):
            return self.unsupported(e.span, "a shared array used as a value is")
        if type(res).__name__ == "InlineConst":  # an aggregate const: its value, here
            return self.lower_expr(res.item.value)
        if isinstance(res, tuple) and res[0] == "unit_struct":
            return self.to_temp(M.Aggregate(res[1], ()), res[1], e.span)
        if isinstance(res, FnValueRes):  # lower/fn_values.py
            return self.lower_fn_value(res, e)
        return UNIT_CONST

    def zero_of(self, ty: T.Ty) -> M.Operand:
        if isinstance(ty, T.FloatTy):
            return M.Constant(0.0, ty)
        if isinstance(ty, (T.IntTy, T.ThreadIndexTy, T.RefTy, T.PtrTy)):
            return M.Constant(0, ty)
        if isinstance(ty, T.BoolTy):
            return M.Constant(False, ty)
        return M.Constant(None, ty)

    def lower_unary_expr(self, e: ast.UnaryExpr) -> M.Operand:
        if e in self.r.overloads:  # `-a` of a user type (trait_calls.py)
            return self.lower_overload(e)
        if e.op == "*":
            return self.spanned(self.read(self.lower_place(e), self.ty(e)), e.span)
        value = self.lower_expr(e.operand)
        op = "neg" if e.op == "-" else "not"
        if op == "neg":
            self.lint_overflow("neg", value, None, self.ty(e), e.span)
        return self.to_temp(M.UnaryOp(op, value), self.ty(e), e.span)

    def lower_binary_expr(self, e: ast.BinaryExpr) -> M.Operand:
        if e.op in ("&&", "||"):
            return self.lower_short_circuit(e)
        if e in self.r.overloads:  # an operator of a user type (trait_calls.py)
            return self.lower_overload(e)
        lhs, rhs = self.lower_in_order((e.lhs, e.rhs))
        if e.lhs in self.r.deref_operands or e.rhs in self.r.deref_operands:
            lhs, rhs = (self.read_through(op, x) if x in self.r.deref_operands else op
                        for op, x in ((lhs, e.lhs), (rhs, e.rhs)))
            return self.binary(BINOPS[e.op], lhs, rhs, self.ty(e.lhs).inner
                               if e.lhs in self.r.deref_operands else self.ty(e.lhs),
                               self.ty(e), e.span)
        if isinstance(self.ty(e.lhs), T.TupleTy):
            return self.tuple_compare(BINOPS[e.op], lhs, rhs, self.ty(e.lhs), e.span)
        return self.binary(BINOPS[e.op], lhs, rhs, self.ty(e.lhs), self.ty(e), e.span)

    def read_through(self, op: M.Operand, e: ast.Expr) -> M.Operand:
        """`*op` for an operand `&x` of an arithmetic or comparison operator."""
        ty = self.ty(e)
        if self.ref_alias(e):
            return self.read(self.ref_alias(e), ty.inner)
        return self.read(M.Place(self.operand_local(op, ty, e.span), (M.Deref(),)), ty.inner)

    def binary(self, op: str, lhs: M.Operand, rhs: M.Operand, operand_ty: T.Ty,
               result_ty: T.Ty, span: Span) -> M.Operand:
        if op in ("div", "rem") and isinstance(operand_ty, T.IntTy):
            self.lint_division(op, lhs, rhs, operand_ty, span)  # panic_lint.py
            self.division_checks(op, lhs, rhs, operand_ty, span)
        self.lint_overflow(op, lhs, rhs, operand_ty, span)
        return self.to_temp(M.BinaryOp(op, lhs, rhs), result_ty, span)

    def division_checks(self, op: str, lhs, rhs, ty: T.IntTy, span: Span) -> None:
        # Rust checks integer division even in release builds.
        if not (isinstance(rhs, M.Constant) and rhs.value != 0):
            nz = self.to_temp(M.BinaryOp("ne", rhs, M.Constant(0, ty)), T.BOOL, span)
            self.check(nz, "attempt to divide by zero" if op == "div" else
                       "attempt to calculate the remainder with a divisor of zero", span)
        if ty.signed and not (isinstance(rhs, M.Constant) and rhs.value != -1):
            lo = T.int_range(ty)[0]
            is_min = self.to_temp(M.BinaryOp("eq", lhs, M.Constant(lo, ty)), T.BOOL, span)
            is_m1 = self.to_temp(M.BinaryOp("eq", rhs, M.Constant(-1, ty)), T.BOOL, span)
            both = self.to_temp(M.BinaryOp("bitand", is_min, is_m1), T.BOOL, span)
            ok = self.to_temp(M.UnaryOp("not", both), T.BOOL, span)
            self.check(ok, "attempt to divide with overflow" if op == "div" else
                       "attempt to calculate the remainder with overflow", span)

    def lower_short_circuit(self, e: ast.BinaryExpr) -> M.Operand:
        result = self.temp(T.BOOL, e.span)
        lhs = self.lower_expr(e.lhs)
        rhs_bb, short_bb, join = self.new_block(), self.new_block(), self.new_block()
        if e.op == "&&":
            self.switch_bool(lhs, rhs_bb, short_bb, e.span)
        else:
            self.switch_bool(lhs, short_bb, rhs_bb, e.span)
        arms = []  # (reachable, known value) of `result` at the end of each arm
        self.cur = short_bb
        self.assign(M.Place(result), M.Use(M.Constant(e.op == "||", T.BOOL)), e.span)
        arms.append((self.cur in self.reachable, self.known_value(M.Copy(M.Place(result)))))
        self.goto(join, e.span)
        self.cur = rhs_bb
        rhs = self.lower_expr(e.rhs)
        self.assign(M.Place(result), M.Use(rhs), e.span)
        arms.append((self.cur in self.reachable, self.known_value(M.Copy(M.Place(result)))))
        self.goto(join, e.span)
        self.cur = join
        # rustc branches on `a || b` directly: with both known, the condition is known
        self.join_known(result, [v for live, v in arms if live])
        return M.Copy(M.Place(result))

    def lower_cast_expr(self, e: ast.CastExpr) -> M.Operand:
        if isinstance(self.ty(e.expr), T.EnumTy):
            return self.lower_enum_cast(e)
        value = self.lower_expr(e.expr)
        src, dst = self.ty(e.expr), self.ty(e)
        if src == dst:
            return value
        if isinstance(src, T.RefTy) and isinstance(dst, T.PtrTy) and T.is_zero_sized(src.inner):
            # a zero-sized value lives in no register and no memory; any non-null address
            # aligned for it is one of its addresses (rustc's `NonNull::dangling()` value)
            align = M.Constant(layout.align_of(src.inner), T.USIZE)
            return self.to_temp(M.Cast(align, dst), dst, e.span)
        return self.to_temp(M.Cast(value, dst), dst, e.span)

    def lower_assign_expr(self, e: ast.AssignExpr) -> M.Operand:
        if e.lhs in self.r.union_views:
            return self.lower_union_write(e)  # lower/unions.py
        if self.through_union_view(e.lhs):
            return self.lower_union_part_write(e)  # lower/unions.py
        value = self.lower_expr(e.rhs)
        place = self.lower_place(e.lhs)
        self.assign(place, M.Use(value), e.span)
        return UNIT_CONST

    def lower_compound_assign_expr(self, e: ast.CompoundAssignExpr) -> M.Operand:
        if e in self.r.overloads:  # `a += b` of a user type (trait_calls.py)
            return self.lower_overload(e)
        if self.through_union_view(e.lhs, itself=True):
            return self.unsupported(e.lhs.span, "a compound assignment to a union field is")
        # Rust evaluates the right operand first for primitive compound assignment.
        value = self.lower_expr(e.rhs)
        place = self.lower_place(e.lhs)
        ty = self.ty(e.lhs)
        result = self.binary(BINOPS[e.op], M.Copy(place), value, ty, ty, e.span)
        self.assign(place, M.Use(result), e.span)
        return UNIT_CONST

    def lower_tuple_expr(self, e: ast.TupleExpr) -> M.Operand:
        if not e.elems:
            return UNIT_CONST
        ops = tuple(self.lower_in_order(e.elems))
        return self.to_temp(M.Aggregate(self.ty(e), ops), self.ty(e), e.span)

    def lower_array_expr(self, e: ast.ArrayExpr) -> M.Operand:
        ops = tuple(self.lower_in_order(e.elems))
        return self.to_temp(M.Aggregate(self.ty(e), ops), self.ty(e), e.span)

    def lower_array_repeat_expr(self, e: ast.ArrayRepeatExpr) -> M.Operand:
        ty = self.ty(e)
        value = self.lower_expr(e.value)
        return self.to_temp(M.Repeat(value, ty.length), ty, e.span)

    def lower_struct_expr(self, e: ast.StructExpr) -> M.Operand:
        if e in self.r.variants:
            return self.lower_variant_struct(e)
        if e in self.r.union_views:
            return self.lower_union_expr(e)  # lower/unions.py
        ty = self.ty(e)
        lowered = self.lower_in_order(x for _, x in e.fields)  # source order
        values = {name: op for (name, _), op in zip(e.fields, lowered)}
        if e.base is not None:
            return self.lower_struct_update(e, ty, values)
        ops = tuple(values[name] for name, _ in ty.fields)
        return self.to_temp(M.Aggregate(ty, ops), ty, e.span)

    def lower_ref_expr(self, e: ast.RefExpr) -> M.Operand:
        if e.raw:
            return self.lower_raw_ref_expr(e)  # lower/pointers.py
        # `&x` / `&mut x.f` of a register local is checked by borrowck and rewritten into
        # direct uses of the place by passes/ref_elim (which rejects escaping ones).
        if isinstance(e.operand, ast.IndexExpr) and isinstance(e.operand.index, ast.RangeExpr):
            return self.read(M.Place(self.lower_subslice(e.operand, e.mutable)), self.ty(e))
        if self.through_union_view(e.operand, itself=True) and not e.mutable \
                and self.frozen_union_root(e.operand):
            # `&u.f` of a union nothing can write: the view's bytes read into a value of its
            # own (lower/unions.py) always read what `u` holds. (Were `u` writable, borrowck
            # would have to see the loan on `u` itself, which the copy does not carry.)
            view_ty = self.ty(e.operand)
            snap = self.new_local(view_ty, e.span)
            self.assign(M.Place(snap), M.Use(self.lower_expr(e.operand)), e.span)
            return self.to_temp(M.Ref(M.Place(snap), False), self.ty(e), e.span)
        if self.through_union_view(e.operand, itself=True):  # lower/unions.py
            what = "a `&mut` reference to a union field is" if e.mutable else \
                "a reference to a field of a union that may be written is"
            return self.unsupported(e.span, what,
                                    help="read the field into a variable and borrow that")
        if isinstance(self.ty(e.operand), T.ClosureTy):  # `&f`: a closure is zero-sized and
            return M.Constant(0, self.ty(e))  # its calls are found by its type (closures.py)
        place = self.lower_place(e.operand)
        cell = self.ty(e.operand)
        if isinstance(cell, T.AtomicCellTy):  # `&cells[i]`: a reference to a view (the
            view = self.to_temp(M.Ref(place, False), cell.view(), e.span)  # cell's address)
            place = M.Place(self.operand_local(view, cell.view(), e.span))
        return self.to_temp(M.Ref(place, e.mutable), self.ty(e), e.span)

    def lower_field_expr(self, e: ast.FieldExpr) -> M.Operand:
        if e in self.r.union_views:
            return self.lower_union_read(e)  # lower/unions.py
        return self.spanned(self.read(self.lower_place(e), self.ty(e)), e.span)

    def lower_index_expr(self, e: ast.IndexExpr) -> M.Operand:
        return self.spanned(self.read(self.lower_place(e), self.ty(e)), e.span)

    def lower_range_expr(self, e: ast.RangeExpr) -> M.Operand:
        # range_expr: expr ".." expr -- `for` loops consume ranges (they never get here); a
        # range typed as a value is `core::ops::Range<T>`, a struct { start, end }
        ty = self.ty(e)
        if isinstance(ty, T.StructTy):
            lo, hi = self.lower_in_order([e.lo, e.hi])
            return self.to_temp(M.Aggregate(ty, (lo, hi)), ty, e.span)
        return self.unsupported(e.span, "ranges as values (outside `for` loops) are")

    def lower_block_expr(self, e: ast.BlockExpr) -> M.Operand:
        if e.unsafe:
            outer = self.scope
            self.source_scopes.append(M.SourceScope(outer, e.span, "unsafe_block"))
            self.scope = len(self.source_scopes) - 1
            try:
                return self.lower_plain_block_expr(e)
            finally:
                self.scope = outer
        return self.lower_plain_block_expr(e)

    def lower_plain_block_expr(self, e: ast.BlockExpr) -> M.Operand:
        if e.label is None:
            return self.lower_block(e.block)
        ty = self.ty(e)
        result = M.Place(self.temp(ty, e.span))
        exit_bb = self.new_block()
        self.loops.append(LoopScope(e.label, exit_bb, None, result))
        value = self.lower_block(e.block)
        self.loops.pop()
        if self.cur is not None:
            self.assign(result, M.Use(value), e.span)
            self.goto(exit_bb, e.span)
        self.cur = exit_bb
        return self.read(result, ty)
