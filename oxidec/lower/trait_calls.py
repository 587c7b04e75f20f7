"""Trait calls that typeck resolved statically (typeck/traits.py, trait_ops.py,
trait_builtin.py): an overloaded operator is a call of its impl's method; a derived
comparison is the field-by-field compare of tuples (aggregates.py); `T::default()`,
numeric `From`/`TryFrom`/`Into` and `.clone()` are built in place.

    a * b          Call(Complex$Mul$mul, [a, b])
    a += b         Call(Complex$AddAssign$add_assign, [a, b]) -> a   (`&mut self` copy-back)
    a == b         derived: a.0 == b.0 & a.1 == b.1 ...
    u8::try_from(x)    x as u8 == x (and the signs agree) ? Ok(x as u8) : Err(TryFromIntError)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from .builder import UNIT_CONST
from .ordering import lower_ordering_method, partial_order_test


def struct_as_tuple(ty: T.Ty) -> T.Ty:
    """A struct's fields as a tuple type (same field indices), for the tuple compare."""
    if isinstance(ty, T.StructTy):
        return T.TupleTy(tuple(struct_as_tuple(t) for _, t in ty.fields))
    return ty


class TraitCallLowering:

    def lower_overload(self, e: ast.Expr) -> M.Operand:
        how = self.r.overloads[e]
        if how[0] == "derived":
            lhs, rhs = self.lower_in_order((e.lhs, e.rhs))
            from .builder import BINOPS
            return self.derived_compare(BINOPS[e.op], lhs, rhs, self.ty(e.lhs), e.span)
        kind, key, receiver, args, negate = how
        sig = self.r.fn_sigs[key]
        result = self.call_user_fn(sig, list(args), e.span, receiver=receiver)
        if kind == "partial_cmp":  # `a < b` through a hand-written `PartialOrd`
            return partial_order_test(self, e.op, result, e.span)
        if negate:
            return self.to_temp(M.UnaryOp("not", result), T.BOOL, e.span)
        if isinstance(e, ast.CompoundAssignExpr):
            return UNIT_CONST
        return result

    def derived_compare(self, op: str, lhs: M.Operand, rhs: M.Operand, ty: T.Ty, span):
        if isinstance(ty, T.EnumTy):  # by discriminant, then the payload (aggregates.py)
            a = M.Place(self.operand_local(lhs, ty, span))
            b = M.Place(self.operand_local(rhs, ty, span))
            if op == "ne":
                eq = self.enum_compare("eq", a, b, ty, span)
                return self.to_temp(M.UnaryOp("not", eq), T.BOOL, span)
            return self.enum_compare(op, a, b, ty, span)
        view = struct_as_tuple(ty)
        if not isinstance(view, T.TupleTy):
            return self.to_temp(M.BinaryOp(op, lhs, rhs), T.BOOL, span)
        return self.tuple_compare(op, lhs, rhs, view, span)

    # -- core's items built in ------------------------------------------------------------
    def lower_builtin_trait_call(self, e: ast.CallExpr, target: tuple) -> M.Operand:
        kind, ty = target
        if kind == "default":
            return self.default_value(ty, e.span)
        value = self.lower_expr(e.args[0])
        src = self.ty(e.args[0])
        if kind == "from":
            return self.convert(value, src, ty, e.span)
        return self.try_convert(value, src, ty, e.span)

    def convert(self, value: M.Operand, src: T.Ty, dst: T.Ty, span) -> M.Operand:
        if src == dst:
            return value
        return self.to_temp(M.Cast(value, dst), dst, span)

    def try_convert(self, value: M.Operand, src: T.IntTy, res: T.EnumTy, span) -> M.Operand:
        dst = res.args[0]
        x = M.Copy(M.Place(self.operand_local(value, src, span)))
        cast = self.to_temp(M.Cast(x, dst), dst, span)
        back = self.to_temp(M.Cast(cast, src), src, span)
        ok = self.to_temp(M.BinaryOp("eq", back, x), T.BOOL, span)
        if src.signed != dst.signed:  # the round trip keeps the bits; the sign must agree too
            neg = self.to_temp(M.BinaryOp("lt", x if src.signed else cast,
                                          M.Constant(0, src if src.signed else dst)), T.BOOL, span)
            pos = self.to_temp(M.UnaryOp("not", neg), T.BOOL, span)
            ok = self.to_temp(M.BinaryOp("bitand", ok, pos), T.BOOL, span)
        result = M.Place(self.temp(res, span))
        yes, no, join = self.new_block(), self.new_block(), self.new_block()
        self.switch_bool(ok, yes, no, span)
        self.cur = yes
        self.assign(result, M.Aggregate(res, (cast,), 0), span)
        self.goto(join, span)
        self.cur = no
        err_ty = res.args[1]
        err = self.to_temp(M.Aggregate(err_ty, ()), err_ty, span)
        self.assign(result, M.Aggregate(res, (err,), 1), span)
        self.goto(join, span)
        self.cur = join
        return M.Copy(result)

    def default_value(self, ty: T.Ty, span) -> M.Operand:
        """core's `Default` for scalars, arrays and tuples; a derive's field by field; a
        user impl's `default()` call."""
        if isinstance(ty, T.BoolTy):
            return M.Constant(False, ty)
        if isinstance(ty, T.FloatTy):
            return M.Constant(0.0, ty)
        if isinstance(ty, T.IntTy):
            return M.Constant(0, ty)
        if ty == T.UNIT:
            return UNIT_CONST
        if isinstance(ty, T.ArrayTy):
            return self.to_temp(M.Repeat(self.default_value(ty.elem, span), ty.length), ty, span)
        if isinstance(ty, T.TupleTy):
            ops = tuple(self.default_value(t, span) for t in ty.elems)
            return self.to_temp(M.Aggregate(ty, ops), ty, span)
        for impl in self.default_impls(ty):
            return self.call_user_fn(self.r.fn_sigs[impl], [], span)
        ops = tuple(self.default_value(t, span) for _, t in ty.fields)
        return self.to_temp(M.Aggregate(ty, ops), ty, span)

    def default_impls(self, ty: T.Ty) -> list[str]:
        return [k for k in self.r.fn_sigs if k.startswith(f"{ty}$Default$default")]

    def lower_trait_method(self, e: ast.MethodCallExpr, name: str) -> M.Operand:
        ty = self.ty(e)
        if name.startswith("ord:"):  # core::cmp (ordering.py)
            return lower_ordering_method(self, e, name[4:])
        if name == "clone":
            place = self.receiver_place(e.receiver)
            return self.read(place, ty)
        value = self.lower_expr(e.receiver)  # `into`/`try_into` between numbers
        if name == "try_into":
            return self.try_convert(value, self.ty(e.receiver), ty, e.span)
        return self.convert(value, self.ty(e.receiver), ty, e.span)

    def lower_user_from(self, e: ast.MethodCallExpr, key: str) -> M.Operand:
        """`x.into()` through the target's `impl From<X>`: `Target::from(x)`."""
        return self.call_user_fn(self.r.fn_sigs[key], [e.receiver], e.span)

    def inline_index_place(self, e: ast.IndexExpr) -> M.Place:
        """`v[i]`: the place of `index`'s (or `index_mut`'s) `&place` body, with `self`
        bound to a reference to `v` made here and the index parameter to `i`'s value."""
        _, key, key_mut = self.r.overloads[e]
        if e in self.r.index_writes:
            key = key_mut
        sig = self.r.fn_sigs[key]
        fn = sig.item
        self_var = self.r.param_var[fn.params[0]]
        base = self.receiver_place(e.base)
        ref_ty = self_var.ty
        r = self.new_local(ref_ty, e.span, "self", False)
        self.assign(M.Place(r), M.Ref(base, isinstance(ref_ty, T.RefTy) and ref_ty.mutable),
                    e.span)
        value = self.lower_expr(e.index)
        idx_var = self.r.param_var.get(fn.params[1])
        if idx_var is not None:
            self.var_local[id(idx_var)] = self.operand_local(value, idx_var.ty, e.index.span)
        else:  # `fn index(&self, (r, c): (usize, usize))`: the pattern binds its variables
            self.bind_pattern(fn.params[1].pat, value, sig.params[1], e.index.span)
        self.var_local[id(self_var)] = r
        return self.lower_place(fn.body.tail.operand)
