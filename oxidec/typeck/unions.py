"""Unions: every field a view of the same bytes.

    union_item: vis? "union" IDENT generic_params? where_clause? "{" field_defs "}"
    U { f: v }      one field written (E0784 otherwise); the other views read its bytes
    u.f             reading a view: `unsafe` (E0133, lower/unsafe_uses.py)
    u.f = v         writing a view: safe; the bytes past the view keep their values

Below typeck a union is a struct of one field, its bytes as an array of the widest
unsigned integers that fit the union's alignment and every view's size (`U { [u32; 1] }`
for `union U { a: u32, b: f32 }`); a view is read or written as `transmute` does
(lower/transmute.py), so no memory is needed. `r.union_fields[U]` keeps the views;
`r.union_views[e]` marks the field expressions and struct expressions that use one.
Only a whole view is a place: `&u.f`, `u.f.x = ..` and `u.f[i] = ..` are not supported.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import layout


def storage_ty(fields: tuple) -> T.ArrayTy:
    """The array a union's bytes live in (see the module docstring)."""
    sizes = [layout.size_of(t) for _, t in fields]
    size = max(sizes, default=0)
    align = max((layout.align_of(t) for _, t in fields), default=1)
    unit = next(u for u in (8, 4, 2, 1)
                if u <= align and size % u == 0 and all(s % u == 0 for s in sizes))
    return T.ArrayTy(T.IntTy(unit * 8, False), size // unit)


def mentions_error(ty) -> bool:
    """Whether a type holds the error type anywhere (a field type that was reported)."""
    if isinstance(ty, T.ErrorTy):
        return True
    if isinstance(ty, (tuple, list)):
        return any(mentions_error(t) for t in ty)
    fields = getattr(ty, "__dataclass_fields__", None)
    return bool(fields) and any(mentions_error(getattr(ty, f)) for f in fields)


class UnionMixin:

    def sized_views(self, item, fields: tuple) -> tuple:
        """The views with a size in memory (a union's bytes are laid out here); a view of a
        type already reported, or of one with no size, is an error (the union's bytes are
        then those of the others, so that its uses are checked without more errors)."""
        sized = []
        for f, (name, ty) in zip(item.fields, fields):
            try:
                layout.size_of(ty)
                sized.append((name, ty))
            except layout.LayoutError:
                if not mentions_error(ty):
                    self.sink.error("OX0002", f"a union field of type `{ty}` is not supported",
                                    f.ty.span, "this type has no size in memory",
                                    help="a union's fields are views of the same bytes: use "
                                         "numbers, arrays, plain structs or pointers")
        return tuple(sized)

    def union_ty(self, key: str, fields: tuple, is_copy: bool, align: int = 1,
                 item=None) -> T.StructTy:
        self.r.union_fields[key] = fields
        if item is not None:
            fields = self.sized_views(item, fields)
        # the storage's words may be narrower than a view's alignment (a 16-aligned view)
        align = max([align] + [layout.align_of(t) for _, t in fields])
        return T.StructTy(key, (("$bytes", storage_ty(fields)),), is_copy=is_copy, align=align)

    def union_field(self, e: ast.FieldExpr, base: T.StructTy) -> T.Ty | None:
        """The type of view `e.name` of union `base`; None if `base` is no union."""
        fields = self.r.union_fields.get(base.name)
        if fields is None:
            return None
        found = dict(fields).get(e.name)
        if found is None:
            names = ", ".join(f"`{n}`" for n, _ in fields)
            self.sink.error("E0609", f"no field `{e.name}` on type `{base}`", e.name_span,
                            "unknown field", help=f"available fields are: {names}")
            return T.ERROR
        self.r.union_views[e] = (base, e.name, found)
        return found

    def check_union_expr(self, e: ast.StructExpr, ty: T.StructTy) -> T.Ty:
        """`U { f: v }`: exactly one view written (rustc's E0784)."""
        fields = dict(self.r.union_fields[ty.name])
        if len(e.fields) != 1 or e.base is not None:
            self.sink.error("E0784", "union expressions should have exactly one field",
                            e.span, "")
            for _, x in e.fields:
                self.check_expr(x)
            return ty
        (fname, x), = e.fields
        fty = fields.get(fname)
        if fty is None:
            self.sink.error("E0560", f"union `{ty}` has no field named `{fname}`", x.span,
                            "unknown field")
            self.check_expr(x)
            return ty
        self.coerce(self.check_expr(x, fty), fty, x.span)
        self.r.union_views[e] = (ty, fname, fty)
        return ty
