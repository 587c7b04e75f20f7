"""Slices in device code: sub-slices, the slice methods, arrays coerced to slices.

    index_expr with a range: s[a..b]  s[a..]  s[..b]  s[..]  s[a..=b]   (a place of type [T])
    method_call_expr on `&[T]` / `&mut [T]` / `[T; N]`: as_ptr as_mut_ptr is_empty get
        get_mut first last first_mut last_mut split_at split_at_mut split_at_checked
        split_at_mut_checked copy_from_slice fill swap

`r.methods[e] = ("slice", name)`; lower/slices.py builds them (every access is
bounds-checked there). `iter` and the iterator adapters belong to the iterators' modules.
"""
from __future__ import annotations

from .. import ast
from .. import types as T

# name -> (parameter kinds, result kind, needs a mutable slice)
SLICE_METHODS: dict[str, tuple[tuple[str, ...], str, bool]] = {
    "as_ptr": ((), "ptr", False), "as_mut_ptr": ((), "mut_ptr", True),
    "is_empty": ((), "bool", False),
    "get": (("usize",), "opt_ref", False), "get_mut": (("usize",), "opt_mut", True),
    "first": ((), "opt_ref", False), "last": ((), "opt_ref", False),
    "first_mut": ((), "opt_mut", True), "last_mut": ((), "opt_mut", True),
    "split_at": (("usize",), "pair", False), "split_at_mut": (("usize",), "mut_pair", True),
    "split_at_checked": (("usize",), "opt_pair", False),
    "split_at_mut_checked": (("usize",), "opt_mut_pair", True),
    "copy_from_slice": (("slice",), "unit", True),
    "fill": (("elem",), "unit", True),
    "swap": (("usize", "usize"), "unit", True),
}


def slice_elem(ty: T.Ty) -> T.Ty | None:
    """T of `&[T]`, `&mut [T]`, `[T; N]` or a reference to an array."""
    while isinstance(ty, T.RefTy) and not isinstance(ty.inner, T.SliceTy):
        ty = ty.inner
    if isinstance(ty, T.RefTy) and isinstance(ty.inner, T.SliceTy):
        return ty.inner.elem
    if isinstance(ty, T.SliceTy):  # a place such as `s[1..]`
        return ty.elem
    if isinstance(ty, T.ArrayTy):
        return ty.elem
    return None


class SliceMixin:

    def slice_method(self, e: ast.MethodCallExpr, recv: T.Ty, base: T.Ty, done) -> T.Ty | None:
        row = SLICE_METHODS.get(e.method)
        elem = slice_elem(base)
        if e.method == "len" and isinstance(base, T.SliceTy):
            return done("slice", (), T.USIZE)
        if e.method == "as_chunks" and elem is not None:
            return self.check_as_chunks(e, elem, done)
        if row is None or elem is None:
            return None
        params, result, needs_mut = row
        if needs_mut and not self.slice_writable(e.receiver, recv):
            what = f"`{e.receiver.span.text()}`"
            self.sink.error("E0596", f"cannot borrow {what} as mutable, as it is behind a `&` "
                            "reference" if isinstance(self.shallow(recv), T.RefTy) else
                            f"cannot borrow {what} as mutable, as it is not declared as mutable",
                            e.receiver.span, "cannot borrow as mutable")
        kinds = {"usize": T.USIZE, "elem": elem, "slice": T.RefTy(T.SliceTy(elem), False)}
        slice_ref = T.RefTy(T.SliceTy(elem), False)
        slice_mut = T.RefTy(T.SliceTy(elem), True)
        results = {"ptr": T.PtrTy(elem, False), "mut_ptr": T.PtrTy(elem, True), "bool": T.BOOL,
                   "opt_ref": T.option_ty(T.RefTy(elem, False)),
                   "opt_mut": T.option_ty(T.RefTy(elem, True)),
                   "pair": T.TupleTy((slice_ref, slice_ref)),
                   "mut_pair": T.TupleTy((slice_mut, slice_mut)), "unit": T.UNIT,
                   "opt_pair": T.option_ty(T.TupleTy((slice_ref, slice_ref))),
                   "opt_mut_pair": T.option_ty(T.TupleTy((slice_mut, slice_mut)))}
        return done("slice", tuple(kinds[k] for k in params), results[result])

    def slice_writable(self, receiver: ast.Expr, recv: T.Ty) -> bool:
        """Whether the receiver is a `&mut [T]` or a mutable array place."""
        ty = self.shallow(recv)
        if isinstance(ty, T.RefTy):
            return ty.mutable
        if isinstance(receiver, ast.PathExpr):
            res = self.r.res.get(receiver)
            var = getattr(res, "var", None)
            return var is None or var.mutable
        return True

    def check_range_index(self, e: ast.IndexExpr) -> T.Ty:
        """`s[a..b]` and the other ranges: a place of type `[T]` (used behind `&`)."""
        base = self.shallow(self.check_expr(e.base))
        rng = e.index
        for bound in (rng.lo, rng.hi):
            if bound is not None:
                self.coerce(self.check_expr(bound, T.USIZE), T.USIZE, bound.span,
                            convert_help=False)
        self.r.expr_ty[rng] = T.RangeTy(T.USIZE)
        elem = slice_elem(base)
        if elem is None:
            if not isinstance(base, T.ErrorTy):
                self.sink.error("E0608", f"cannot index into a value of type "
                                f"`{self.deep(base)}`", e.span, "cannot be indexed")
            return T.ERROR
        return T.SliceTy(elem)

    def check_as_chunks(self, e: ast.MethodCallExpr, elem: T.Ty, done) -> T.Ty:
        """`s.as_chunks::<N>()`: (`&[[T; N]]` of the whole chunks, `&[T]` of the rest)."""
        n = None
        if len(e.generic_args) == 1:
            n = self.consts.eval_usize(self._const_arg(e.generic_args[0]))
        if n is None or n == 0:
            self.sink.error("E0107" if n is None else "E0080",
                            "`as_chunks` takes a chunk size: `as_chunks::<N>()`" if n is None
                            else "chunk size must be non-zero", e.method_span,
                            "write `as_chunks::<N>()` with N > 0")
            return T.ERROR
        self.r.generic_values[e] = (n,)
        return done("slice", (), T.TupleTy((T.RefTy(T.SliceTy(T.ArrayTy(elem, n)), False),
                                           T.RefTy(T.SliceTy(elem), False))))
