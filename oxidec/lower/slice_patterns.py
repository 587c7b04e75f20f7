"""Slice patterns on a slice (`match s { [] => .., [a] => .., [a, b, rest @ ..] => .. }`):
the length test, the element places, and the `rest @ ..` sub-slice.

    [a, b]          Len(s) == 2;  a = (*s)[0], b = (*s)[1]
    [a, .., z]      Len(s) >= 2;  a = (*s)[0], z = (*s)[Len(s) - 1]
    [a, rest @ ..]  Len(s) >= 1;  rest = &(*s)[1..Len(s)]   (always a reference: `[T]` is
                                                             unsized; typeck/patterns.py)

The length is known to be enough before an element is read, so the element reads need no
bounds check of their own (the index is below the tested length).
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span


def _is_rest(p: ast.Pattern) -> bool:
    return isinstance(p, ast.RestPat) or (isinstance(p, ast.IdentPat) and
                                          isinstance(p.sub, ast.RestPat))


def _split(elems):
    """(front patterns, the rest pattern or None, back patterns)."""
    for i, p in enumerate(elems):
        if _is_rest(p):
            return list(elems[:i]), p, list(elems[i + 1:])
    return list(elems), None, []


class SlicePatternLowering:

    def slice_length(self, place: M.Place, slice_ty: T.SliceTy, span: Span) -> M.Operand:
        """`place.len()` for a place of type `[T]` (`*s` for a reference `s`)."""
        if place.projection and place.projection[-1] == M.Deref():
            fat = M.Place(place.local, place.projection[:-1])
        else:
            ty = T.RefTy(slice_ty, False)
            fat = M.Place(self.operand_local(self.to_temp(M.Ref(place, False), ty, span), ty,
                                             span))
        return self.to_temp(M.Len(fat), T.USIZE, span)

    def test_slice_length(self, pat: ast.SlicePat, place: M.Place, fail: int,
                          span: Span) -> None:
        front, rest, back = _split(pat.elems)
        need = M.Constant(len(front) + len(back), T.USIZE)
        ok = self.new_block()
        c = self.to_temp(M.BinaryOp("eq" if rest is None else "ge",
                                    self.slice_length(place, self.r.pat_ty[pat], span), need),
                           T.BOOL, span)
        self.switch_bool(c, ok, fail, span)
        self.cur = ok

    def slice_elem_places(self, pat: ast.SlicePat, place: M.Place, span: Span):
        """(pattern, place) of each element pattern: the front ones by their index, the
        back ones from the end."""
        front, _, back = _split(pat.elems)
        out = [(p, place.project(M.Index(self.usize_local(M.Constant(i, T.USIZE), span))))
               for i, p in enumerate(front)]
        if back:
            length = self.slice_length(place, self.r.pat_ty[pat], span)
            for k, p in enumerate(back):
                at = self.to_temp(M.BinaryOp("sub", length, M.Constant(len(back) - k, T.USIZE)),
                                  T.USIZE, span)
                out.append((p, place.project(M.Index(self.usize_local(at, span)))))
        return out

    def bind_slice_rest(self, pat: ast.SlicePat, place: M.Place, ty: T.SliceTy,
                        span: Span) -> None:
        front, rest, back = _split(pat.elems)
        if not isinstance(rest, ast.IdentPat) or rest not in self.r.pat_var:
            return
        var = self.r.pat_var[rest]
        mutable = isinstance(var.ty, T.RefTy) and var.ty.mutable
        fat_ty = T.RefTy(ty, mutable)
        fat = self.operand_local(self.to_temp(M.Ref(place, mutable), fat_ty, span), fat_ty, span)
        length = self.to_temp(M.Len(M.Place(fat)), T.USIZE, span)
        hi = self.to_temp(M.BinaryOp("sub", length, M.Constant(len(back), T.USIZE)), T.USIZE,
                          span)
        sub = self.fat_from(fat, ty.elem, mutable, M.Constant(len(front), T.USIZE), hi, span)
        local = self.local_for(var)
        self.note_binding(local)
        self.assign(M.Place(local), M.Use(self.read(M.Place(sub), fat_ty)), span)
