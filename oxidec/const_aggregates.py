"""Aggregates in constants: arrays, tuples and structs as compile-time values, built,
indexed, read field by field and assigned element by element, as rustc's const evaluator
does. Mixed into ConstEvaluator (consteval.py); the scalar arithmetic stays there.

    const T: [f32; 4] = { let mut t = [0.0; 4]; let mut i = 0;
                          while i < 4 { t[i] = i as f32 * 0.5; i += 1; } t };
    const P: [(u32, f32); 2] = [(1, 0.5), (2, 0.25)];
    const X: f32 = T[3] + P[1].1;               // 1.75
    const BAD: f32 = T[4];                      // E0080: index out of bounds

An aggregate's value is a tuple of its elements' ConstValues (fields in declaration order).
`pack` writes one in C layout (mir/layout.py): typeck makes an aggregate const a read-only
device global with those bytes (typeck/item_paths.py), so a table is built once, at compile
time, not per use.
"""
from __future__ import annotations

import struct

from . import ast
from . import types as T
from .mir import layout

_PACK = {8: "b", 16: "h", 32: "i", 64: "q"}


class ConstAggregateMixin:

    def eval_aggregate(self, e: ast.Expr, expected):
        """The value of an aggregate-building or -reading expression; False when `e` is
        none of those (the caller reports it), None when it failed (reported here)."""
        from .consteval import ConstValue
        if isinstance(e, ast.ArrayExpr):
            elem = expected.elem if isinstance(expected, T.ArrayTy) else None
            vals = []
            for x in e.elems:
                v = self.eval(x, elem)
                if v is None:
                    return None
                elem = elem or v.ty
                vals.append(self.coerce_const(v, elem, x))
            if any(v is None for v in vals) or elem is None:
                return None if vals else False
            return ConstValue(tuple(vals), T.ArrayTy(elem, len(vals)))
        if isinstance(e, ast.ArrayRepeatExpr):
            elem = expected.elem if isinstance(expected, T.ArrayTy) else None
            v = self.eval(e.value, elem)
            n = self.eval(e.count, T.USIZE)
            if v is None or n is None:
                return None
            return ConstValue((v,) * n.value, T.ArrayTy(v.ty, n.value))
        if isinstance(e, ast.TupleExpr):
            tys = expected.elems if isinstance(expected, T.TupleTy) \
                and len(expected.elems) == len(e.elems) else (None,) * len(e.elems)
            vals = [self.eval(x, t) for x, t in zip(e.elems, tys)]
            if any(v is None for v in vals):
                return None
            return ConstValue(tuple(vals), T.TupleTy(tuple(v.ty for v in vals)))
        if isinstance(e, ast.StructExpr):
            return self.eval_struct(e, expected)
        if isinstance(e, ast.IndexExpr):
            base = self.eval(e.base, None)
            idx = self.eval(e.index, T.USIZE)
            if base is None or idx is None:
                return None
            if not isinstance(base.ty, T.ArrayTy):
                self.fail(e)
                return None
            if not 0 <= idx.value < base.ty.length:
                self.sink.error("E0080", "evaluation of constant value failed", e.span,
                                f"index out of bounds: the length is {base.ty.length} but "
                                f"the index is {idx.value}")
                return None
            return base.value[idx.value]
        if isinstance(e, ast.FieldExpr):
            base = self.eval(e.base, None)
            if base is None:
                return None
            slot = _field_slot(base.ty, e.name)
            if slot is None:
                self.fail(e)
                return None
            return base.value[slot]
        return False

    def eval_struct(self, e: ast.StructExpr, expected):
        from .consteval import ConstValue
        if not isinstance(expected, T.StructTy) or e.base is not None \
                or expected.name.rsplit("::", 1)[-1] != e.path.names[-1]:
            self.fail(e)
            return None
        given = dict(e.fields)
        if set(given) != {n for n, _ in expected.fields}:
            self.fail(e)
            return None
        vals = []
        for name, fty in expected.fields:
            v = self.eval(given[name], fty)
            if v is None:
                return None
            vals.append(self.coerce_const(v, fty, given[name]))
        if any(v is None for v in vals):
            return None
        return ConstValue(tuple(vals), expected)

    def coerce_const(self, v, ty: T.Ty, e: ast.Expr):
        if v.ty == ty:
            return v
        self.sink.error("E0308", "mismatched types", e.span, f"expected `{ty}`, found `{v.ty}`")
        return None

    def assign_place(self, place: ast.Expr, value) -> bool:
        """`t[i] = v`, `s.f.g = v`, `t[i].0 = v` on a local of the interpreted body: the
        local gets a new value with that element replaced. False if `place` is not one."""
        target, path = place, []
        while isinstance(target, (ast.IndexExpr, ast.FieldExpr)):
            path.append(target)
            target = target.base
        if not (isinstance(target, ast.PathExpr) and len(target.path.names) == 1):
            return False
        name = target.path.names[0]
        scope = self.lookup_local(name)
        if scope is None:
            return False
        new = self._replace(scope[name], list(reversed(path)), value, place)
        if new is None:
            raise _failed()
        scope[name] = new
        return True

    def _replace(self, cur, steps: list, value, place: ast.Expr):
        from .consteval import ConstValue
        if not steps:
            return self.coerce_const(value, cur.ty, place)
        step = steps[0]
        if isinstance(step, ast.IndexExpr):
            idx = self.eval(step.index, T.USIZE)
            if idx is None or not isinstance(cur.ty, T.ArrayTy):
                return None
            if not 0 <= idx.value < cur.ty.length:
                self.sink.error("E0080", "evaluation of constant value failed", step.span,
                                f"index out of bounds: the length is {cur.ty.length} but "
                                f"the index is {idx.value}")
                return None
            slot = idx.value
        else:
            slot = _field_slot(cur.ty, step.name)
            if slot is None:
                self.fail(step)
                return None
        inner = self._replace(cur.value[slot], steps[1:], value, place)
        if inner is None:
            return None
        elems = list(cur.value)
        elems[slot] = inner
        return ConstValue(tuple(elems), cur.ty)


def _failed():
    from .const_fn import _Return
    return _Return(None)


def _field_slot(ty: T.Ty, name: str) -> int | None:
    if isinstance(ty, T.StructTy):
        return ty.field_index(name)
    if isinstance(ty, T.TupleTy) and name.isdigit() and int(name) < len(ty.elems):
        return int(name)
    return None


def is_aggregate(ty: T.Ty) -> bool:
    """Types a constant may be a compile-time aggregate of: arrays, tuples and structs of
    scalars and of such aggregates (no references, enums or pointers)."""
    if isinstance(ty, T.ArrayTy):
        return is_aggregate(ty.elem) or _plain_scalar(ty.elem)
    if isinstance(ty, T.TupleTy):
        return bool(ty.elems) and all(is_aggregate(t) or _plain_scalar(t) for t in ty.elems)
    if isinstance(ty, T.StructTy):
        return bool(ty.fields) and all(is_aggregate(t) or _plain_scalar(t)
                                       for _, t in ty.fields)
    return False


def _plain_scalar(ty: T.Ty) -> bool:
    return isinstance(ty, T.BoolTy) or (isinstance(ty, T.IntTy) and ty.bits in (8, 16, 32, 64,
                                                                                  128)) \
        or (isinstance(ty, T.FloatTy) and ty.bits in (32, 64))


def pack(value, ty: T.Ty) -> bytes:
    """A constant's value in C layout (little-endian, padding zero)."""
    if isinstance(ty, T.ArrayTy):
        return b"".join(pack(v.value, ty.elem) for v in value)
    if isinstance(ty, (T.TupleTy, T.StructTy)):
        out = bytearray(layout.size_of(ty))
        for off, v in zip(layout.field_offsets(ty), value):
            b = pack(v.value, v.ty)
            out[off:off + len(b)] = b
        return bytes(out)
    if isinstance(ty, T.BoolTy):
        return bytes([1 if value else 0])
    if isinstance(ty, T.FloatTy):
        return struct.pack("<f" if ty.bits == 32 else "<d", value)
    return (int(value) & ((1 << ty.bits) - 1)).to_bytes(ty.bits // 8, "little")
