"""`DisjointSlice<T, Runtime2DIndex>`: an output slice with a row width known at run time
(the host passes it with the slice, cuda-oxide's three-word {ptr, len, row_width}), and its
witness `ThreadIndex<Runtime2DIndex>` = (global row, global column):

    let w = out.row_width();                    // the host-bound row width (u32)
    if let Some(i) = thread::index_2d_runtime(&out) {   // None: width 0, col >= width, or a
        i.row(); i.col();                       //       grid/block with z extent != 1
        if let Some(o) = out.get_mut(i) { .. }  // element row * width + col of *this* slice:
    }                                           // None when col >= its width or past its end
    DisjointSlice::from_raw_parts_with_space(ptr, len, row_width)   // unsafe

A witness minted against one slice may address another of a different width: `get_mut`
resolves it against the width of the slice it is called on (lower/runtime2d_api.py).
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

TYPES = [ApiType("Runtime2DSlice", "disjoint", "<T>",
                 doc="`DisjointSlice<T, Runtime2DIndex>`: rows of a run-time width"),
         ApiType("ThreadIndex2D", "thread", doc="`ThreadIndex<Runtime2DIndex>`: (row, col)")]

OWNER = "Runtime2DSlice"


def _m(name: str, params: tuple[str, ...], ret: str, low: str, **kw) -> ApiFn:
    return ApiFn(f"{OWNER}::{name}", params, ret, hook(low), kind="method", owner=OWNER,
                 type_params=("T",), **kw)


FNS = [
    # the parameter is any `&DisjointSlice<T, Runtime2DIndex>` (typeck hook)
    ApiFn("thread::index_2d_runtime", ("_",), "Option<ThreadIndex2D>",
          hook("index_2d_runtime"), check="runtime2d_slice_arg"),
    _m("row_width", (), "u32", "row_width"),
    _m("get_mut", ("ThreadIndex2D",), "Option<&mut T>", "runtime2d_get_mut"),
    # the 1-D views of the same data, as on every DisjointSlice
    _m("len", (), "usize", "len"),
    _m("is_empty", (), "bool", "is_empty"),
    _m("as_mut_ptr", (), "*mut T", "disjoint_as_mut_ptr"),
    _m("get_unchecked_mut", ("usize",), "&mut T", "get_unchecked_mut", unsafe=True),
    ApiFn("DisjointSlice::from_raw_parts_with_space", ("*mut T", "usize", "u32"),
          "Runtime2DSlice<T>", hook("runtime2d_from_raw_parts"), kind="assoc_fn",
          owner="DisjointSlice", type_params=("T",), unsafe=True, check="elem_from_ptr"),
    ApiFn("ThreadIndex2D::row", (), "usize", hook("witness2d_field"), kind="method",
          owner="ThreadIndex2D"),
    ApiFn("ThreadIndex2D::col", (), "usize", hook("witness2d_field"), kind="method",
          owner="ThreadIndex2D"),
]
