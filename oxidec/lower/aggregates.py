"""Comparisons of tuples (typeck/aggregates.py): `==` is every element equal; `<` is
lexicographic as core's `PartialOrd` for tuples: the first unequal element decides, with
the strict operator (`<=` compares a non-last unequal pair with `<`), and the last element
with the operator itself. Branch-free: the elements are plain values, so this is a chain
of `select`s the passes fold.
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

    def _elem(self, place: M.Place, i: int, ty: T.Ty) -> M.Operand:
        return M.Copy(place.project(M.Field(i)))

    def _compare(self, op: str, a: M.Place, b: M.Place, i: int, ty: T.Ty, span) -> M.Operand:
        el = ty.elems[i]
        if isinstance(el, T.TupleTy):
            pa, pb = a.project(M.Field(i)), b.project(M.Field(i))
            if op == "eq":
                return self._tuple_eq(pa, pb, el, span)
            return self._tuple_ord(op, pa, pb, el, span)
        return self.to_temp(M.BinaryOp(op, self._elem(a, i, el), self._elem(b, i, el)),
                            T.BOOL, span)

    def _tuple_eq(self, a: M.Place, b: M.Place, ty: T.TupleTy, span) -> M.Operand:
        result = None
        for i in range(len(ty.elems)):
            eq = self._compare("eq", a, b, i, ty, span)
            result = eq if result is None else \
                self.to_temp(M.BinaryOp("bitand", result, eq), T.BOOL, span)
        return result if result is not None else M.Constant(True, T.BOOL)

    def _tuple_ord(self, op: str, a: M.Place, b: M.Place, ty: T.TupleTy, span) -> M.Operand:
        n = len(ty.elems)
        if n == 0:
            return M.Constant(op in ("le", "ge"), T.BOOL)
        result = self._compare(op, a, b, n - 1, ty, span)
        for i in range(n - 2, -1, -1):
            eq = self._compare("eq", a, b, i, ty, span)
            strict = self._compare(STRICT[op], a, b, i, ty, span)
            result = self.to_temp(M.Intrinsic("select", (eq, result, strict)), T.BOOL, span)
        return result
