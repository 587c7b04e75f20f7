"""Sub-slice iterator sources (typeck/iterators.py `window_source`): item k is a slice of
the receiver made from its data pointer and k, so the loop is an index loop with no
per-item bookkeeping beyond one address computation:

    s.chunks_exact(n)   count len / n;               item k = s[k*n .. k*n + n]
    s.chunks(n)         count len / n (+1 if a rest); item k = s[k*n .. min(k*n + n, len)]
    s.windows(n)        count len + 1 - n (0 if n > len); item k = s[k .. k + n]
    s.chunks_exact(n).remainder()                    s[len - len % n ..]

n == 0 panics, as in core ("chunk size must be non-zero").
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M
from .iter_items import value_item

USIZE = T.USIZE
WINDOW_SOURCES = ("chunks", "chunks_exact", "windows", "chunks_mut", "chunks_exact_mut")


def _bin(lw, op: str, a, b, span, ty: T.Ty = USIZE) -> M.Operand:
    return lw.to_temp(M.BinaryOp(op, a, b), T.BOOL if op in M.COMPARISONS else ty, span)


def _source(lw, e, m: str):
    """(the receiver as a fat local, its element type, its length, the size n)."""
    span = e.span
    mutable = m.endswith("_mut")
    fat, elem = lw.as_fat(e.receiver, mutable)
    length = lw.fixed(lw.to_temp(M.Len(M.Place(fat)), USIZE, span), USIZE, span)
    n = lw.fixed(lw.lower_expr(e.args[0]), USIZE, span)
    what = "window size" if m == "windows" else "chunk size"
    lw.check(_bin(lw, "ne", n, M.Constant(0, USIZE), span), f"{what} must be non-zero", span)
    return fat, elem, length, n, mutable


def window_chain(lw, e, m: str):
    span = e.span
    fat, elem, length, n, mutable = _source(lw, e, m)
    whole = _bin(lw, "div", length, n, span)
    if m.startswith("chunks_exact"):
        count = whole
    elif m.startswith("chunks"):
        rest = _bin(lw, "ne", _bin(lw, "rem", length, n, span), M.Constant(0, USIZE), span)
        count = _bin(lw, "add", whole, lw.to_temp(M.Cast(rest, USIZE), USIZE, span), span)
    else:
        fits = _bin(lw, "le", n, length, span)
        span_left = _bin(lw, "add", _bin(lw, "sub", length, n, span), M.Constant(1, USIZE), span)
        count = lw.select(fits, span_left, M.Constant(0, USIZE), USIZE, span)
    item_ty = T.RefTy(T.SliceTy(elem), mutable)

    def element(k: M.Operand):
        lo = k if m == "windows" else _bin(lw, "mul", k, n, span)
        size = n  # the length is n itself, so `c[3]` with n = 4 needs no bounds check
        if m in ("chunks", "chunks_mut"):
            left = _bin(lw, "sub", length, lo, span)
            size = lw.select(_bin(lw, "lt", n, left, span), n, left, USIZE, span)
        return value_item(subslice(lw, fat, elem, mutable, lo, size, span), item_ty)
    from .iterators import Chain
    return Chain(lw.index_base(count, element))


def subslice(lw, fat: int, elem: T.Ty, mutable: bool, lo, size, span) -> M.Operand:
    """`&s[lo..lo + size]`, in range by construction: no check."""
    data = lw.data_ptr(fat, elem, mutable, span)
    start = lw.to_temp(M.Intrinsic("ptr_add", (data, lo)), T.RefTy(elem, mutable), span)
    ty = T.RefTy(T.SliceTy(elem), mutable)
    return lw.to_temp(M.Intrinsic("slice_from_parts", (start, size)), ty, span)


def chunks_remainder(lw, e) -> M.Operand:
    """`s.chunks_exact(n).remainder()`: the last len % n elements."""
    src = e.receiver
    m = lw.r.iter_methods[src]
    span = e.span
    fat, elem, length, n, mutable = _source(lw, src, m)
    start = _bin(lw, "sub", length, _bin(lw, "rem", length, n, span), span)
    sub = lw.fat_from(fat, elem, mutable, start, length, span)
    return lw.read(M.Place(sub), T.RefTy(T.SliceTy(elem), mutable))
