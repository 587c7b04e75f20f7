"""Comparisons of tuples (typeck/aggregates.py): `==` is every element equal; `<` is
lexicographic as core's `PartialOrd` for tuples: the first unequal element decides, with
the strict operator (`<=` compares a non-last unequal pair with `<`), and the last element
with the operator itself. Branch-free: the elements are plain values, so this is a chain
of `select`s the passes fold.

Structs compare as the tuple of their fields; enums as `#[derive(PartialEq, PartialOrd)]`
defines it: different variants by discriminant, the same variant by its fields in order
(a branch on the variant, then the tuple compare of its payload):

    a < b    da != db ? da < db : match a { V(x, y) => (x, y) < (b.x, b.y), W => false }
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M

STRICT = {"lt": "lt", "le": "lt", "gt": "gt", "ge": "gt"}


class AggregateLowering:

    def tuple_compare(self, op: str, lhs: M.Operand, rhs: M.Operand, ty: T.TupleTy,
                      span) -> M.Operand:
        a = M.Place(self.operand_local(lhs, ty, span))
        b = M.Place(self.operand_local(rhs, ty, span))
        if op in ("eq", "ne"):
            eq = self._tuple_eq(a, b, ty, span)
            return eq if op == "eq" else self.to_temp(M.UnaryOp("not", eq), T.BOOL, span)
        return self._tuple_ord(op, a, b, ty, span)

    def _compare(self, op: str, a: M.Place, b: M.Place, i: int, ty: T.Ty, span,
                 variant: int | None = None) -> M.Operand:
        el = ty.elems[i]
        pa, pb = a.project(M.Field(i, variant)), b.project(M.Field(i, variant))
        return self.place_compare(op, pa, pb, el, span)

    def place_compare(self, op: str, pa: M.Place, pb: M.Place, el: T.Ty, span) -> M.Operand:
        """`pa op pb` for two places of type `el` (op: eq, lt, le, gt, ge)."""
        if isinstance(el, T.StructTy) and not el.name.startswith("core::ops::Range"):
            el = T.TupleTy(tuple(t for _, t in el.fields))  # the same field indices
        if isinstance(el, T.TupleTy):
            if op == "eq":
                return self._tuple_eq(pa, pb, el, span)
            return self._tuple_ord(op, pa, pb, el, span)
        if isinstance(el, T.EnumTy):
            return self.enum_compare(op, pa, pb, el, span)
        return self.to_temp(M.BinaryOp(op, M.Copy(pa), M.Copy(pb)), T.BOOL, span)

    def enum_compare(self, op: str, a: M.Place, b: M.Place, ty: T.EnumTy, span) -> M.Operand:
        """Derived `==` / `<` on enum places (see the module docstring)."""
        da = self.to_temp(M.Cast(self.to_temp(M.Discriminant(a), ty.tag, span), T.I64),
                          T.I64, span)
        db = self.to_temp(M.Cast(self.to_temp(M.Discriminant(b), ty.tag, span), T.I64),
                          T.I64, span)
        if all(not v.fields for v in ty.variants):
            return self.to_temp(M.BinaryOp(op, da, db), T.BOOL, span)
        if op == "ne":
            eq = self.enum_compare("eq", a, b, ty, span)
            return self.to_temp(M.UnaryOp("not", eq), T.BOOL, span)
        result = M.Place(self.new_local(T.BOOL, span))
        same_bb, diff_bb, join = self.new_block(), self.new_block(), self.new_block()
        self.switch_bool(self.to_temp(M.BinaryOp("eq", da, db), T.BOOL, span), same_bb,
                         diff_bb, span)
        self.cur = diff_bb
        self.assign(result, M.Use(M.Constant(False, T.BOOL)) if op == "eq"
                    else M.BinaryOp(op, da, db), span)
        self.goto(join, span)
        self.cur = same_bb
        targets = [self.new_block() for _ in ty.variants]
        dead = self.new_block()
        self.terminate(M.SwitchInt(da, tuple(ty.discrs), tuple(targets), dead, span))
        self.cur = dead
        self.terminate(M.Unreachable(span))
        for v, bb in enumerate(targets):
            self.cur = bb
            fields = T.TupleTy(tuple(t for _, t in ty.variants[v].fields))
            if op == "eq":
                value = self._tuple_eq(a, b, fields, span, v)
            else:
                value = self._tuple_ord(op, a, b, fields, span, v)
            self.assign(result, M.Use(value), span)
            self.goto(join, span)
        self.cur = join
        return M.Copy(result)

    def _tuple_eq(self, a: M.Place, b: M.Place, ty: T.TupleTy, span,
                  variant: int | None = None) -> M.Operand:
        result = None
        for i in range(len(ty.elems)):
            eq = self._compare("eq", a, b, i, ty, span, variant)
            result = eq if result is None else \
                self.to_temp(M.BinaryOp("bitand", result, eq), T.BOOL, span)
        return result if result is not None else M.Constant(True, T.BOOL)

    def _tuple_ord(self, op: str, a: M.Place, b: M.Place, ty: T.TupleTy, span,
                   variant: int | None = None) -> M.Operand:
        n = len(ty.elems)
        if n == 0:
            return M.Constant(op in ("le", "ge"), T.BOOL)
        result = self._compare(op, a, b, n - 1, ty, span, variant)
        for i in range(n - 2, -1, -1):
            eq = self._compare("eq", a, b, i, ty, span, variant)
            strict = self._compare(STRICT[op], a, b, i, ty, span, variant)
            result = self.to_temp(M.Intrinsic("select", (eq, result, strict)), T.BOOL, span)
        return result
