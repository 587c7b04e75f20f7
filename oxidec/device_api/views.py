"""`cuda_device::view`: proof-carrying 32-bit views of a `DisjointSlice` (checked once when
made, then read and written without further checks) and the tile index spaces.

    DisjointSlice<T>                          .element_thread32(i) -> Option<InBoundsMut32<T>>
    DisjointSlice<T, LinearTiles<N>>          .tile_thread32(i)    -> Option<StaticViewMut32<T, N>>
        thread t owns elements [t*N, t*N+N)   .thread_run32(i)     -> Option<ThreadRunMut32<T, N>>
                                              .grid_stride_runs32(i) -> GridStrideRuns32<T, N>
    DisjointSlice<T, RowMajorTiles<R, C, S>>  .tile_2d32(coord)    -> Option<StaticTileMut32<..>>
        thread (row, col) owns rows row*R.., columns col*C.. of a row-major matrix of S columns

    InBoundsMut32<T>        read() write(v) get() get_mut()
    StaticViewMut32<T, N>   at_const::<I>() (I < N, else E0080) len() is_empty()
    StaticTileMut32<..>     at_const::<ROW, COL>() rows() cols()
    ThreadRunMut32<T, N>    len() is_empty() is_clipped() at(k) -> Option<InBoundsMut32<T>>
    GridStrideRuns32<T, N>  next_run() -> Option<ThreadRunMut32<T, N>> (runs t, t + threads,
                            t + 2*threads, .. of the grid's gridDim.x * blockDim.x threads);
                            period() -> u64 (threads * N: elements between a thread's runs)

`i` is the `ThreadIndex32` of `index_1d_u32`, `coord` the `ThreadCoord2D32` of
`coord_2d_u32`. A tile (`tile_thread32`, `tile_2d32`) must fit whole (else None); a run is
clipped at the end of the slice instead. The results' types come from the receiver
(typeck/views.py); lowering: lower/views_api.py. The views are structs of the element
pointer (and a run's length): oxidec/device_types.py `ViewTy`.

The read-only and checked-index side (lower/views_more.py, typeck/view_ctors.py):

    MatrixView32::new(&s, stride)  .row(r, cols) -> Option<RowView32<T>>  (cols <= stride,
                                                  r*stride + cols <= len)
                                   .col(c, rows) -> Option<ColView32<T>>  (c < stride, the
                                                  last element in the slice)
                                   stride() len() is_empty()
    RowView32 / ColView32          empty() get(i) -> Option<T> iter() (items T, an indexed
                                   iterator: adapters and consumers) len() is_empty();
                                   row.zip_exact(col) -> Option<ZipView32<T>> (equal lengths)
    ZipView32<T>                   an iterator of (T, T): `for (a, b) in z`, `z.map(..)`
    LocalIndex32<N>                new(k) -> Option (k < N), constant::<I>() (I < N, else
                                   E0080), get()
    StaticView32<T, N> / StaticViewMut32<T, N>::from_slice(s) -> Option (s.len() == N);
                                   at(LocalIndex32<N>) -> InBounds32 / InBoundsMut32
    StaticTileMut32 / RuntimeTileMut32  at(LocalIndex32<ROWS>, LocalIndex32<COLS>)
    DisjointSlice<T, RuntimeRowMajorTiles<R, C>>  (a 2-D array from the host: its row width)
                                   .tile_2d32_rt(coord) -> Option<RuntimeTileMut32<T, R, C>>
                                   (at, at_const, rows, cols, stride), row_width()

Not built: `ThreadRunMut32` is a struct here, not cuda-oxide's enum of `Full(StaticViewMut32)`
/ `Clipped(RuntimeViewMut32)`, so it cannot be matched by variant, and `RuntimeViewMut32`
(reached only through that match) does not exist.
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

VIEW_TYPES = ("InBoundsMut32", "StaticViewMut32", "StaticTileMut32", "ThreadRunMut32",
              "GridStrideRuns32", "InBounds32", "StaticView32", "RuntimeTileMut32",
              "MatrixView32", "RowView32", "ColView32", "ZipView32")
# index-space marker -> number of const parameters
TILE_SPACES = {"LinearTiles": 1, "RowMajorTiles": 3, "RuntimeRowMajorTiles": 2}
# the views that are walked as iterators: `.iter()` of a row or column, a ZipView32 itself
ITER_VIEWS = ("RowView32", "ColView32", "ZipView32")

TYPES = [
    ApiType("LinearTiles", "view", "<const N: usize>",
            doc="index space: thread t owns N consecutive elements"),
    ApiType("RowMajorTiles", "view", "<const ROWS: usize, const COLS: usize, "
            "const ROW_STRIDE: usize>", doc="index space: a ROWS x COLS tile per thread"),
    ApiType("RuntimeRowMajorTiles", "view", "<const ROWS: usize, const COLS: usize>",
            doc="index space: a ROWS x COLS tile per thread, the row width from the host"),
    ApiType("LocalIndex32", "view", "<const N: usize>", doc="a u32 checked to be below N"),
    ApiType("RuntimeTilesSlice", "disjoint", "<T>",
            doc="`DisjointSlice<T, RuntimeRowMajorTiles<ROWS, COLS>>`"),
    *(ApiType(name, "view") for name in VIEW_TYPES),
]

# DisjointSlice method -> (index spaces it is defined for, the witness it takes)
SLICE_METHODS = {
    "element_thread32": ("1d", "ThreadIndex32"),
    "tile_thread32": ("tiles", "ThreadIndex32"),
    "thread_run32": ("tiles", "ThreadIndex32"),
    "grid_stride_runs32": ("tiles", "ThreadIndex32"),
    "tile_2d32": ("rmtiles", "ThreadCoord2D32"),
}
LI = "_"  # a LocalIndex32<N> of the view's bound (typeck/views.py)
# view type -> its methods: name -> (parameters, const generics)
VIEW_METHODS = {
    "InBoundsMut32": {"read": ((), 0), "write": (("_",), 0), "get": ((), 0),
                      "get_mut": ((), 0)},
    "InBounds32": {"read": ((), 0), "get": ((), 0)},
    "StaticViewMut32": {"at": ((LI,), 0), "at_const": ((), 1), "len": ((), 0),
                        "is_empty": ((), 0)},
    "StaticView32": {"at": ((LI,), 0), "at_const": ((), 1), "len": ((), 0),
                     "is_empty": ((), 0)},
    "StaticTileMut32": {"at": ((LI, LI), 0), "at_const": ((), 2), "rows": ((), 0),
                        "cols": ((), 0)},
    "RuntimeTileMut32": {"at": ((LI, LI), 0), "at_const": ((), 2), "rows": ((), 0),
                         "cols": ((), 0), "stride": ((), 0)},
    "ThreadRunMut32": {"len": ((), 0), "is_empty": ((), 0), "is_clipped": ((), 0),
                       "at": (("u32",), 0)},
    "GridStrideRuns32": {"next_run": ((), 0), "period": ((), 0)},
    "MatrixView32": {"row": (("u32", "u32"), 0), "col": (("u32", "u32"), 0),
                     "stride": ((), 0), "len": ((), 0), "is_empty": ((), 0)},
    "RowView32": {"get": (("u32",), 0), "iter": ((), 0), "zip_exact": (("_",), 0),
                  "len": ((), 0), "is_empty": ((), 0)},
    "ColView32": {"get": (("u32",), 0), "iter": ((), 0), "len": ((), 0),
                  "is_empty": ((), 0), "stride": ((), 0)},
    "ZipView32": {"len": ((), 0)},
    "LocalIndex32": {"get": ((), 0)},
    "RuntimeTilesSlice": {"tile_2d32_rt": (("ThreadCoord2D32",), 0), "row_width": ((), 0),
                          "len": ((), 0), "is_empty": ((), 0)},
}
# associated functions that make a view or an index: `Owner::name` -> parameters
VIEW_CONSTRUCTORS = {
    "MatrixView32::new": ("_", "u32"),
    "RowView32::empty": (),
    "ColView32::empty": (),
    "StaticView32::from_slice": ("_",),
    "StaticViewMut32::from_slice": ("_",),
    "LocalIndex32::new": ("u32",),
    "LocalIndex32::constant": (),
}

FNS = [
    *(ApiFn(f"DisjointSlice::{name}", (witness,), "u32", hook("view"), kind="method",
            owner="DisjointSlice", check="view")
      for name, (_space, witness) in SLICE_METHODS.items()),
    *(ApiFn(f"{owner}::{name}", params, "u32", hook("view"), kind="method", owner=owner,
            check="view", const_generics=consts)
      for owner, methods in VIEW_METHODS.items() for name, (params, consts) in methods.items()),
    # a tiles slice's raw access, as on every DisjointSlice (lower/calls.py)
    ApiFn("RuntimeTilesSlice::as_mut_ptr", (), "*mut T", hook("disjoint_as_mut_ptr"),
          kind="method", owner="RuntimeTilesSlice", type_params=("T",)),
    ApiFn("RuntimeTilesSlice::get_unchecked_mut", ("usize",), "&mut T",
          hook("get_unchecked_mut"), kind="method", owner="RuntimeTilesSlice",
          type_params=("T",), unsafe=True),
    *(ApiFn(path, params, "u32", hook("view_new"), kind="assoc_fn", owner=path.split("::")[0],
            check="view_new", const_generics=1 if path.endswith("constant") else 0,
            aliases=(f"view::{path}",))
      for path, params in VIEW_CONSTRUCTORS.items()),
]
