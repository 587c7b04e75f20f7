"""The elements flowing through an iterator chain (lower/iterators.py), kept unbuilt.

An item is a value, a reference to a place (`a.iter()` yields `&a[k]`), or a tuple of items
(`enumerate`, `zip`). Keeping references and tuples symbolic until a pattern takes them apart
means `for (i, x) in a.iter().enumerate()` binds `i` to the counter and `x` to `&a[k]`
without building the tuple `(usize, &f32)` (a reference stored in a value could not stay in
registers); a pattern that wants the whole item gets it built.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span


@dataclass
class Item:
    kind: str  # "value" | "ref" | "tuple"
    ty: T.Ty
    op: M.Operand | None = None  # "value"
    place: M.Place | None = None  # "ref": the place referred to
    parts: tuple = ()  # "tuple": the items


def value_item(op: M.Operand, ty: T.Ty) -> Item:
    return Item("value", ty, op=op)


def ref_item(place: M.Place, ty: T.RefTy) -> Item:
    return Item("ref", ty, place=place)


def tuple_item(parts) -> Item:
    parts = tuple(parts)
    return Item("tuple", T.TupleTy(tuple(p.ty for p in parts)), parts=parts)


class ItemLowering:

    def ref_alias(self, e: ast.Expr) -> M.Place | None:
        """The place a variable bound to an iterator's `&place` item refers to."""
        if isinstance(e, ast.PathExpr) and self.ref_aliases:
            var = getattr(self.r.res.get(e), "var", None)
            if var is not None and id(var) in self.ref_aliases:
                return self.ref_aliases[id(var)][0]
        return None

    def alias_ref(self, var) -> M.Place:
        """A reference to the place an aliased variable names, made where it is used."""
        place, ty = self.ref_aliases[id(var)]
        t = self.new_local(ty, place_span := self.locals[place.local].span)
        self.assign(M.Place(t), M.Ref(place, ty.mutable), place_span)
        return M.Place(t)

    def item_operand(self, item: Item, span: Span) -> M.Operand:
        """The item as one MIR value."""
        if item.kind == "value":
            return item.op
        if item.kind == "ref":
            return self.to_temp(M.Ref(item.place, item.ty.mutable), item.ty, span)
        ops = tuple(self.item_operand(p, span) for p in item.parts)
        return self.to_temp(M.Aggregate(item.ty, ops), item.ty, span)

    def item_value(self, item: Item, span: Span) -> M.Operand:
        """The value an item stands for, through one reference (`sum` of `&i32`s)."""
        if item.kind == "ref":
            return self.read(item.place, item.ty.inner)
        return self.item_operand(item, span)

    def item_place(self, item: Item, span: Span) -> M.Place:
        """A place holding the item (a temporary unless it is a reference's target)."""
        op = self.item_operand(item, span)
        return M.Place(self.operand_local(op, item.ty, span))

    def bind_item(self, pat: ast.Pattern, item: Item, span: Span) -> None:
        """`let PAT = item` for an irrefutable pattern, taking tuples and `&` apart."""
        if isinstance(pat, ast.WildPat):
            return
        derefs = self.r.pat_derefs.get(pat, 0)
        if item.kind == "tuple" and isinstance(pat, ast.TuplePat) and not derefs \
                and len(pat.elems) == len(item.parts) \
                and not any(isinstance(p, ast.RestPat) for p in pat.elems):
            for p, part in zip(pat.elems, item.parts):
                self.bind_item(p, part, span)
            return
        if item.kind == "ref" and isinstance(pat, ast.RefPat) and not derefs:
            self.bind_place(pat.inner, item.place, span)
            return
        if item.kind == "ref" and isinstance(pat, ast.IdentPat) and pat.sub is None \
                and pat not in self.r.binding_mode and not self.r.pat_var[pat].mutable:
            # `x` names `&place`: `*x` reads the place itself (no pointer is formed, so the
            # PTX is the hand-written `a[i]` loop's); any other use takes the reference there
            self.ref_aliases[id(self.r.pat_var[pat])] = (item.place, item.ty)
            return
        if item.kind == "ref" and derefs:  # default binding modes through the `&`
            self.bind_place(pat, M.Place(self.operand_local(
                self.item_operand(item, span), item.ty, span)), span)
            return
        self.bind_pattern(pat, self.item_operand(item, span), item.ty, span)
