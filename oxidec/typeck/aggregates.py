"""Operators on aggregate values: tuples compare with `==`/`!=` (element-wise) and
`<`/`<=`/`>`/`>=` (lexicographically), as core's `PartialEq`/`PartialOrd` for tuples.

    binary_expr: expr ("==" | "!=" | "<" | "<=" | ">" | ">=") expr     (tuple operands)
"""
from __future__ import annotations

from .. import types as T


class AggregateOpsMixin:

    def comparable_tuple(self, ty: T.Ty, trait: str = "PartialOrd") -> bool:
        """A tuple whose elements are all comparable scalars, such tuples, or structs and
        enums with the derived `trait` (lower/aggregates.py compares them)."""
        ty = self.shallow(ty)
        if not isinstance(ty, T.TupleTy):
            return False
        for el in ty.elems:
            el = self.shallow(el)
            if isinstance(el, T.InferTy) and el.kind in ("int", "float"):
                continue
            if isinstance(el, (T.StructTy, T.EnumTy)) and self.derived_comparable(el, trait):
                continue
            if not (isinstance(el, (T.IntTy, T.FloatTy, T.BoolTy))
                    or self.comparable_tuple(el, trait)):
                return False
        return True
