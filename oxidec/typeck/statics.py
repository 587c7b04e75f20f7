"""Module-level `static`s: device globals in global memory, initialised with their value.

    static_item: vis? "static" MUT? IDENT ":" type "=" expr ";"

`static X: T = v;` is read-only (the simulator's region is read-only; the PTX is `.global`
with the value as its initialiser); `static mut X` may be written, and every use of it
needs `unsafe` (E0133, unsafeck.py), as in rustc. The value must be a constant: scalars
(consteval.py), arrays, tuples and structs of them, other consts. A module-level
`SharedArray` static is shared memory (typeck/stmts.py `shared_static`), a `#[constant]` one
constant memory (`constant_static`).
"""
from __future__ import annotations

import struct

from .. import ast
from .. import types as T
from ..const_aggregates import is_aggregate, pack
from ..mir import layout
from .results import StaticRes

_PACK = {("int", 8): "b", ("int", 16): "h", ("int", 32): "i", ("int", 64): "q",
         ("uint", 8): "B", ("uint", 16): "H", ("uint", 32): "I", ("uint", 64): "Q",
         ("float", 32): "f", ("float", 64): "d"}


class StaticsMixin:

    def module_static(self, e: ast.PathExpr, d) -> T.Ty:
        item = d.item
        te = item.ty
        res = self.r.statics.get(d.key)
        if res is None and isinstance(te, ast.PathType) and te.path.names[-1] in ("SharedArray",
                                                                                  "Barrier"):
            with self.in_scope_of(item):
                res = self.shared_static(item, d.key)
            if res is None:
                return T.ERROR
        if res is None and any(a.name == "constant" for a in item.attrs):
            res = self.constant_static(d, item)
            if res is None:
                return T.ERROR
        if res is None:
            with self.in_scope_of(item):
                ty = self.lower_type(item.ty)
                init = self.static_bytes(item.value, ty)
            if init is None:
                return T.ERROR
            res = StaticRes(d.key, ty, item.mutable, item.name_span, "global", init)
            self.r.statics[d.key] = res
        self.r.res[e] = res
        return res.ty

    def constant_static(self, d, item) -> StaticRes | None:
        """`#[constant] static X: ConstantMemory<T> = ConstantMemory::UNINIT;`: a value in
        constant memory (`.const`), zero until the host sets it (api `set_constant`, `oxidec
        run --const X=...`); read with `X.get()` (the whole value) or `X.get_ref()`."""
        te = item.ty
        last = te.path.segments[-1] if isinstance(te, ast.PathType) else None
        if last is None or last.name != "ConstantMemory" or len(last.generic_args) != 1:
            self.sink.error("E0308", "mismatched types", te.span,
                            "a `#[constant]` static has type `ConstantMemory<T>`")
            return None
        value = item.value
        if not (isinstance(value, ast.PathExpr) and value.path.names[-2:] ==
                ("ConstantMemory", "UNINIT")):
            self.sink.error("E0080", "a `#[constant]` static starts as `ConstantMemory::UNINIT`",
                            value.span, "not `ConstantMemory::UNINIT`",
                            help="constant memory is written by the host before a launch "
                                 "(`module.set_constant(..)`, `oxidec run --const NAME=..`)")
            return None
        with self.in_scope_of(item):
            ty = self.lower_type(last.generic_args[0])
        if _contains_error(ty):
            return None
        res = StaticRes(d.key, ty, False, item.name_span, "const", bytes(layout.size_of(ty)))
        self.r.statics[d.key] = res
        return res

    def constant_method(self, e: ast.MethodCallExpr, res: StaticRes, done) -> T.Ty:
        if e.method == "get":
            return done("constant", (), res.ty)
        if e.method == "get_ref":
            return done("constant", (), T.RefTy(res.ty, False))
        self.sink.error("E0599", f"no method named `{e.method}` found for "
                        f"`ConstantMemory<{res.ty}>` in the current scope", e.method_span,
                        "method not found", help="constant memory has `get()` and `get_ref()`")
        return T.ERROR

    def check_static_write(self, place: ast.Expr) -> None:
        """E0594: an assignment into a plain (immutable) `static`."""
        root = place
        while isinstance(root, (ast.FieldExpr, ast.IndexExpr)):
            root = root.base
        res = self.r.res.get(root) if isinstance(root, ast.PathExpr) else None
        if isinstance(res, StaticRes) and res.space == "global" and not res.mutable:
            name = root.path.names[-1]
            self.sink.error("E0594", f"cannot assign to immutable static item `{name}`",
                            place.span, "cannot assign",
                            help=f"declare it `static mut {name}` (every use of it then needs "
                                 "`unsafe`), or keep the value in a local")

    def static_bytes(self, e: ast.Expr, ty: T.Ty) -> bytes | None:
        """The value of a static's initialiser in C layout, or None (reported)."""
        if _contains_error(ty):  # already reported where the type was written
            return None
        if isinstance(e, ast.PathExpr) and not T.is_scalar(ty):
            item = self.consts.const_item(e.path)
            if item is not None:  # another const of aggregate type: its value
                with self.in_scope_of(item):
                    return self.static_bytes(item.value, ty)
        if T.is_scalar(ty):
            v = self.consts.eval(e, ty)
            if v is None:
                return None
            if v.ty != ty:
                self.mismatch(ty, v.ty, e.span)
                return None
            return _pack(v.value, ty)
        if isinstance(ty, T.ArrayTy):
            if isinstance(e, ast.ArrayRepeatExpr):
                one = self.static_bytes(e.value, ty.elem)
                return None if one is None else one * ty.length
            if isinstance(e, ast.ArrayExpr):
                if len(e.elems) != ty.length:
                    self.sink.error("E0308", "mismatched types", e.span,
                                    f"expected an array with a size of {ty.length}, found one "
                                    f"with a size of {len(e.elems)}")
                    return None
                parts = [self.static_bytes(x, ty.elem) for x in e.elems]
                return None if any(p is None for p in parts) else b"".join(parts)
        if isinstance(ty, (T.StructTy, T.TupleTy)):
            fields = _fields_of(e, ty)
            if fields is not None:
                out = bytearray(layout.size_of(ty))
                types = [t for _, t in ty.fields] if isinstance(ty, T.StructTy) else ty.elems
                for off, fty, x in zip(layout.field_offsets(ty), types, fields):
                    b = self.static_bytes(x, fty)
                    if b is None:
                        return None
                    out[off:off + len(b)] = b
                return bytes(out)
        value = self.consts.eval(e, ty)  # a block, a `const fn` call (const_aggregates.py)
        if value is not None and value.ty == ty and is_aggregate(ty):
            return pack(value.value, ty)
        self.sink.error("E0080", "could not evaluate static initializer", e.span,
                        f"not a constant value of type `{ty}` oxidec can evaluate",
                        help="write the value with literals, consts, arrays, tuples and "
                             "struct expressions")
        return None


def _contains_error(ty: T.Ty) -> bool:
    if isinstance(ty, T.ErrorTy):
        return True
    if isinstance(ty, T.ArrayTy):
        return _contains_error(ty.elem)
    if isinstance(ty, T.StructTy):
        return any(_contains_error(t) for _, t in ty.fields)
    if isinstance(ty, T.TupleTy):
        return any(_contains_error(t) for t in ty.elems)
    return False


def _fields_of(e: ast.Expr, ty) -> list[ast.Expr] | None:
    """The field expressions of a struct or tuple literal, in layout order."""
    if isinstance(ty, T.TupleTy) and isinstance(e, ast.TupleExpr) \
            and len(e.elems) == len(ty.elems):
        return list(e.elems)
    if isinstance(ty, T.StructTy) and isinstance(e, ast.StructExpr) and e.base is None:
        given = dict(e.fields)
        if set(given) != {n for n, _ in ty.fields}:
            return None
        return [given[n] for n, _ in ty.fields]
    return None


def _pack(value, ty: T.Ty) -> bytes:
    if isinstance(ty, T.BoolTy):
        return bytes([1 if value else 0])
    if isinstance(ty, T.FloatTy):
        return struct.pack("<" + _PACK[("float", ty.bits)], value)
    if ty.bits == 128:  # no struct code: two's complement, little-endian
        return (int(value) & ((1 << 128) - 1)).to_bytes(16, "little")
    lo = "int" if ty.signed else "uint"
    return struct.pack("<" + _PACK[(lo, ty.bits)], int(value))
