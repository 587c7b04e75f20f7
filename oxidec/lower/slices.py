"""Slices in device code (typeck/slices.py types them): sub-slices and the slice methods.
Every element access is bounds-checked here (`Assert`), unless the kernel is
`#[kernel(unchecked_indexing)]`; the passes remove a check only where the MIR proves it.

    &s[a..b]          check a <= b, b <= len;  _f = slice_from_parts(&(*s)[0] + a, b - a)
    s.get(i)          Option { tag: i < len, Some.0: &(*s)[i] }   (the address is only
                      arithmetic: it is dereferenced under the tag)
    s.split_at(m)     check m <= len; (from_parts(p, m), from_parts(p + m, len - m))
    s.fill(v)         for i in 0..len { s[i] = v }
    arr.as_ptr()      &raw const arr[0]   (the array then lives in memory: mir/refs.py)

A method that hands out a reference into an array first takes the array as a slice
(`&arr[..]`), so the array lives in memory; `fill`, `swap` and `is_empty` work on the
array's place directly.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from .builder import UNIT_CONST

ZERO = M.Constant(0, T.USIZE)


class SliceLowering:

    # -- views of the receiver ---------------------------------------------------
    def slice_place(self, base: ast.Expr) -> tuple[M.Place, M.Operand, T.Ty]:
        """(a place of type `[T]` or `[T; N]`, its length, T) for a slice or array value."""
        place = self.lower_place(base)
        ty = self.ty(base)
        while isinstance(ty, T.RefTy) and not isinstance(ty.inner, T.SliceTy):
            place, ty = place.project(M.Deref()), ty.inner
        if isinstance(ty, T.RefTy):
            length = self.to_temp(M.Len(place), T.USIZE, base.span)
            return place.project(M.Deref()), length, ty.inner.elem
        if isinstance(ty, T.SliceTy):  # `*fat`, as `s[1..]` lowers
            fat = M.Place(place.local, place.projection[:-1])
            return place, self.to_temp(M.Len(fat), T.USIZE, base.span), ty.elem
        return place, M.Constant(ty.length, T.USIZE), ty.elem

    def as_fat(self, base: ast.Expr, mutable: bool) -> tuple[int, T.Ty]:
        """A local holding `base` as a `&[T]` / `&mut [T]` (a reborrow of a slice, or the
        array unsized: `&arr[..]`)."""
        ty = self.ty(base)
        span = base.span
        if isinstance(ty, T.RefTy) and isinstance(ty.inner, T.SliceTy) and not mutable:
            return self.operand_local(self.lower_expr(base), ty, span), ty.inner.elem
        place, _, elem = self.slice_place(base)
        fat = T.RefTy(T.SliceTy(elem), mutable)
        return self.operand_local(self.to_temp(M.Ref(place, mutable), fat, span), fat,
                                  span), elem

    def data_ptr(self, fat: int, elem: T.Ty, mutable: bool, span: Span) -> M.Operand:
        """`&(*fat)[0]`: the slice's first element's address (a reborrow: no load)."""
        zero = self.operand_local(ZERO, T.USIZE, span)
        return self.to_temp(M.Ref(M.Place(fat, (M.Deref(), M.Index(zero))), mutable),
                            T.RefTy(elem, mutable), span)

    def usize_local(self, op: M.Operand, span: Span) -> int:
        return self.operand_local(op, T.USIZE, span)

    def less(self, op: str, a: M.Operand, b: M.Operand, span: Span) -> M.Operand:
        return self.to_temp(M.BinaryOp(op, a, b), T.BOOL, span)

    # -- `&s[a..b]` -------------------------------------------------------------------
    def lower_subslice(self, e: ast.IndexExpr, mutable: bool) -> int:
        span = e.span
        rng: ast.RangeExpr = e.index
        fat, elem = self.as_fat(e.base, mutable)
        length = self.to_temp(M.Len(M.Place(fat)), T.USIZE, span)
        lo = self.lower_expr(rng.lo) if rng.lo is not None else ZERO
        lo = M.Copy(M.Place(self.usize_local(lo, span)))
        if rng.hi is None:
            hi = length
        else:
            hi = self.lower_expr(rng.hi)
            if rng.inclusive:
                if self.checked:
                    top = M.Constant(T.int_range(T.USIZE)[1], T.USIZE)
                    self.check(self.less("ne", hi, top, span),
                               "attempted to index slice up to maximum usize", span)
                hi = self.to_temp(M.BinaryOp("add", hi, M.Constant(1, T.USIZE)), T.USIZE, span)
            hi = M.Copy(M.Place(self.usize_local(hi, span)))
            if self.checked:
                self.check(self.less("le", hi, length, span),
                           "range end index out of range for slice", span)
        if self.checked and rng.lo is not None:
            self.check(self.less("le", lo, hi, span), "slice index starts after it ends", span)
        return self.fat_from(fat, elem, mutable, lo, hi, span)

    def fat_from(self, fat: int, elem: T.Ty, mutable: bool, lo: M.Operand, hi: M.Operand,
                 span: Span) -> int:
        """The slice of elements lo..hi of `fat` (the bounds already checked)."""
        data = self.data_ptr(fat, elem, mutable, span)
        ref = T.RefTy(elem, mutable)
        start = data if isinstance(lo, M.Constant) and lo.value == 0 else \
            self.to_temp(M.Intrinsic("ptr_add", (data, lo)), ref, span)
        n = self.to_temp(M.BinaryOp("sub", hi, lo), T.USIZE, span)
        ty = T.RefTy(T.SliceTy(elem), mutable)
        return self.operand_local(self.to_temp(M.Intrinsic("slice_from_parts", (start, n)), ty,
                                               span), ty, span)

    def halves(self, fat: int, elem: T.Ty, mutable: bool, mid: M.Operand, length: M.Operand,
               span: Span) -> tuple[M.Operand, M.Operand]:
        """`(s[..mid], s[mid..])` (mid already checked): both from one reborrow of the data,
        so borrowck sees one loan, kept by the pair (and each half taken out of it), as
        rustc's `split_at_mut` gives two disjoint borrows of one: the right half starts at
        a raw copy of that reborrow's address."""
        ref_ty, raw_ty = T.RefTy(elem, mutable), T.PtrTy(elem, mutable)
        data = self.operand_local(self.data_ptr(fat, elem, mutable, span), ref_ty, span)
        raw = self.to_temp(M.Cast(M.Copy(M.Place(data)), raw_ty), raw_ty, span)
        start = self.to_temp(M.Intrinsic("ptr_add", (raw, mid)), raw_ty, span)
        rest = self.to_temp(M.BinaryOp("sub", length, mid), T.USIZE, span)
        half = T.RefTy(T.SliceTy(elem), mutable)
        left = self.to_temp(M.Intrinsic("slice_from_parts", (M.Move(M.Place(data)), mid)), half,
                            span)
        right = self.to_temp(M.Intrinsic("slice_from_parts", (start, rest)), half, span)
        return left, right

    # -- the methods --------------------------------------------------------------
    def lower_slice_method(self, e: ast.MethodCallExpr, name: str) -> M.Operand:
        span, ty = e.span, self.ty(e)
        if name in ("as_ptr", "as_mut_ptr"):
            place, _, elem = self.slice_place(e.receiver)
            zero = self.usize_local(ZERO, span)
            return self.to_temp(M.Ref(place.project(M.Index(zero)), name == "as_mut_ptr"), ty,
                                span)
        if name == "len":  # of a place of type `[T]`
            return self.slice_place(e.receiver)[1]
        if name == "is_empty":
            _, length, _ = self.slice_place(e.receiver)
            return self.less("eq", length, ZERO, span)
        if name in ("fill", "swap"):
            place, length, elem = self.slice_place(e.receiver)
            args = list(self.lower_in_order(e.args))
            if name == "fill":
                self.fill_loop(place, length, args[0], elem, span)
            else:
                self.swap_elements(place, length, elem, args, span)
            return UNIT_CONST
        mutable = name.endswith("_mut") or name in ("copy_from_slice", "split_at_mut_checked")
        fat, elem = self.as_fat(e.receiver, mutable)
        length = self.to_temp(M.Len(M.Place(fat)), T.USIZE, span)
        args = list(self.lower_in_order(e.args))
        if name in ("get", "get_mut", "first", "first_mut", "last", "last_mut"):
            if name.startswith("get"):
                i = args[0]
            elif name.startswith("first"):
                i = ZERO
            else:
                i = self.to_temp(M.BinaryOp("sub", length, M.Constant(1, T.USIZE)), T.USIZE,
                                 span)
            i = self.usize_local(i, span)
            ok = self.less("lt", M.Copy(M.Place(i)), length, span)
            ref = self.to_temp(M.Ref(M.Place(fat, (M.Deref(), M.Index(i))), mutable),
                               ty.variants[1].fields[0][1], span)
            return self.to_temp(M.Aggregate(ty, (ok, ref)), ty, span)
        if name in ("split_at", "split_at_mut"):
            mid = M.Copy(M.Place(self.usize_local(args[0], span)))
            if self.checked:
                self.check(self.less("le", mid, length, span), "mid > len", span)
            left, right = self.halves(fat, elem, mutable, mid, length, span)
            return self.to_temp(M.Aggregate(ty, (left, right)), ty, span)
        if name in ("split_at_checked", "split_at_mut_checked"):  # None when mid > len
            mid = self.usize_local(args[0], span)
            ok = self.less("le", M.Copy(M.Place(mid)), length, span)
            # the halves of `min(mid, len)`: no out-of-range slice even when unused
            cut = self.to_temp(M.Intrinsic("min", (M.Copy(M.Place(mid)), length)), T.USIZE,
                               span)
            left, right = self.halves(fat, elem, mutable, cut, length, span)
            pair_ty = ty.variants[1].fields[0][1]
            pair = self.to_temp(M.Aggregate(pair_ty, (left, right)), pair_ty, span)
            return self.to_temp(M.Aggregate(ty, (ok, pair)), ty, span)
        if name == "as_chunks":
            (n,) = self.r.generic_values[e]
            count = self.to_temp(M.BinaryOp("div", length, M.Constant(n, T.USIZE)), T.USIZE,
                                 span)
            whole = self.to_temp(M.BinaryOp("mul", count, M.Constant(n, T.USIZE)), T.USIZE,
                                 span)
            chunks_ty, rest_ty = ty.elems
            arr = chunks_ty.inner.elem
            data = self.data_ptr(fat, elem, False, span)
            as_arr = self.to_temp(M.Cast(data, T.PtrTy(arr, False)), T.PtrTy(arr, False), span)
            chunks = self.to_temp(M.Intrinsic("slice_from_parts", (as_arr, count)), chunks_ty,
                                  span)
            rest = self.fat_from(fat, elem, False, whole, length, span)
            return self.to_temp(M.Aggregate(ty, (chunks, self.read(M.Place(rest), rest_ty))),
                                ty, span)
        if name == "copy_from_slice":
            src = self.operand_local(args[0], self.ty(e.args[0]), span)
            n = self.to_temp(M.Len(M.Place(src)), T.USIZE, span)
            self.check(self.less("eq", n, length, span), "source slice length does not match "
                       "destination slice length", span)
            dst = self.data_ptr(fat, elem, True, span)
            sp = self.data_ptr(src, elem, False, span)
            self.copy_elements(sp, dst, length, T.RefTy(elem, False), T.RefTy(elem, True),
                               False, span)
            return UNIT_CONST
        return self.unsupported(span, f"the slice method `{name}` is")

    def fill_loop(self, place: M.Place, length: M.Operand, value: M.Operand, elem: T.Ty,
                  span: Span) -> None:
        count = self.usize_local(length, span)
        v = self.operand_local(value, elem, span)
        i = self.temp(T.USIZE, span)
        self.assign(M.Place(i), M.Use(ZERO), span)
        head, body, done = self.new_block(), self.new_block(), self.new_block()
        self.goto(head, span)
        self.cur = head
        self.switch_bool(self.less("lt", M.Copy(M.Place(i)), M.Copy(M.Place(count)), span),
                         body, done, span)
        self.cur = body
        self.assign(place.project(M.Index(i)), M.Use(M.Copy(M.Place(v))), span)
        nxt = self.to_temp(M.BinaryOp("add", M.Copy(M.Place(i)), M.Constant(1, T.USIZE)),
                           T.USIZE, span)
        self.assign(M.Place(i), M.Use(nxt), span)
        self.goto(head, span)
        self.cur = done

    def swap_elements(self, place: M.Place, length: M.Operand, elem: T.Ty, args,
                      span: Span) -> None:
        a, b = (self.usize_local(x, span) for x in args)
        if self.checked:
            for k in (a, b):
                self.check(self.less("lt", M.Copy(M.Place(k)), length, span),
                           "index out of bounds", span)
        pa, pb = place.project(M.Index(a)), place.project(M.Index(b))
        t = self.to_temp(M.Use(self.read(pa, elem)), elem, span)
        self.assign(pa, M.Use(self.read(pb, elem)), span)
        self.assign(pb, M.Use(t), span)
