"""Types of device-API handles that are structs underneath (re-exported by types.py)."""
from __future__ import annotations

from dataclasses import dataclass

from .types import BARRIER, BOOL, U32, U64, USIZE, DisjointSliceTy, PtrTy, StructTy, Ty


# `DisjointSlice<T, Runtime2DIndex>`: the slice and its row width, laid out as cuda-oxide's
# #[repr(C)] {ptr, len, row_width} (a 24-byte kernel parameter); its witness
# `ThreadIndex<Runtime2DIndex>` keeps the (row, col) it was minted from (neither Copy nor
# Clone), resolved against the row width of the slice it addresses (lower/runtime2d_api.py)
@dataclass(frozen=True)
class Runtime2DSliceTy(StructTy):
    @property
    def elem(self) -> Ty:
        return self.fields[0][1].elem


def runtime2d_slice_ty(elem: Ty) -> Runtime2DSliceTy:
    return Runtime2DSliceTy(f"DisjointSlice<{elem}, thread::Runtime2DIndex>",
                            (("slice", DisjointSliceTy(elem)), ("row_width", U32)))


THREAD_INDEX_2D = StructTy("ThreadIndex<thread::Runtime2DIndex>", (("row", USIZE),
                                                                   ("col", USIZE)))


# `barrier::ManagedBarrier<State, Kind, ID>` (device_api/managed_barrier.py): the pointer
# to the shared `Barrier`; its state, kind and id are in its name
BARRIER_TOKEN = StructTy("BarrierToken", (("0", U64),), True)


def managed_barrier_ty(state: str, kind: str, ident: int) -> StructTy:
    return StructTy(f"ManagedBarrier<{state}, {kind}, {ident}>",
                    (("ptr", PtrTy(BARRIER, True)),))


def managed_barrier_parts(ty: Ty) -> tuple[str, str, int] | None:
    """(state, kind, id) of a ManagedBarrier type, else None."""
    if not (isinstance(ty, StructTy) and ty.name.startswith("ManagedBarrier<")):
        return None
    state, kind, ident = ty.name[len("ManagedBarrier<"):-1].split(", ")
    return state, kind, int(ident)


# `cusimd::CuSimd<T, N>` (device_api/cusimd.py): N values of T in registers, a `[T; N]`
def cusimd_ty(elem: Ty, n: int) -> StructTy:
    from .types import ArrayTy
    return StructTy(f"CuSimd<{elem}, {n}>", (("0", ArrayTy(elem, n)),), True)


def cusimd_parts(ty: Ty) -> tuple[Ty, int] | None:
    """(T, N) of a CuSimd type, else None."""
    if isinstance(ty, StructTy) and ty.name.startswith("CuSimd<") and len(ty.fields) == 1:
        arr = ty.fields[0][1]
        return arr.elem, arr.length
    return None


# `cuda_device::view` (device_api/views.py): proof-carrying views of a `DisjointSlice`,
# checked once when made, then read and written without further checks. Each is a struct
# of the element pointer (and, for runs, the run's length); `kind` names the view, `dims`
# holds its const parameters (N; ROWS, COLS, ROW_STRIDE)
@dataclass(frozen=True)
class ViewTy(StructTy):
    kind: str = ""
    dims: tuple[int, ...] = ()

    @property
    def elem(self) -> Ty:
        return self.fields[0][1].inner


VIEW_FIELDS = {
    "InBoundsMut32": (),
    "StaticViewMut32": (),
    "StaticTileMut32": (),
    # a thread's run: its length (N, or fewer at the end of the slice) and whether clipped
    "ThreadRunMut32": (("len", U32), ("clipped", BOOL)),
    # a thread's runs with a grid stride: the slice's length, the next run's first element
    # and the distance between runs (elements)
    "GridStrideRuns32": (("len", USIZE), ("pos", USIZE), ("step", USIZE)),
    "InBounds32": (),
    "StaticView32": (),
    # a tile of a row-major matrix whose row width is known at run time
    "RuntimeTileMut32": (("stride", U32),),
    # a read-only matrix over a slice: its length and row width (elements)
    "MatrixView32": (("len", USIZE), ("stride", U32)),
    "RowView32": (("len", U32),),
    "ColView32": (("len", U32), ("stride", U32)),  # elements `stride` apart
    # a row (ptr) and a column of the same length, walked together
    "ZipView32": (("col", None), ("len", U32), ("stride", U32)),
}


def view_ty(kind: str, elem: Ty, dims: tuple[int, ...] = ()) -> ViewTy:
    name = f"{kind}<{', '.join([str(elem), *map(str, dims)])}>"
    ptr = PtrTy(elem, True)
    fields = tuple((n, ptr if t is None else t) for n, t in VIEW_FIELDS[kind])
    return ViewTy(name, (("ptr", ptr), *fields), kind in COPY_VIEWS, kind=kind,
                  dims=dims)  # by name: StructTy's own fields come first (align)


COPY_VIEWS = ("InBounds32", "StaticView32", "MatrixView32", "RowView32", "ColView32")


# `view::LocalIndex32<N>`: a u32 checked to be below N (the index of a static view or tile)
def local_index_ty(n: int) -> StructTy:
    return StructTy(f"LocalIndex32<{n}>", (("0", U32),), True)


def local_index_bound(ty: Ty) -> int | None:
    """N of a `LocalIndex32<N>`, else None."""
    if isinstance(ty, StructTy) and ty.name.startswith("LocalIndex32<"):
        return int(ty.name[len("LocalIndex32<"):-1])
    return None


# `DisjointSlice<T, RuntimeRowMajorTiles<ROWS, COLS>>`: laid out (and passed) as the
# Runtime2DIndex slice, {ptr, len, row_width}; a thread owns a ROWS x COLS tile
@dataclass(frozen=True)
class RuntimeTilesSliceTy(Runtime2DSliceTy):
    dims: tuple[int, ...] = ()


def runtime_tiles_slice_ty(elem: Ty, rows: int, cols: int) -> RuntimeTilesSliceTy:
    return RuntimeTilesSliceTy(f"DisjointSlice<{elem}, RuntimeRowMajorTiles<{rows}, {cols}>>",
                               (("slice", DisjointSliceTy(elem)), ("row_width", U32)),
                               dims=(rows, cols))


def view_kind(ty: Ty) -> str | None:
    return ty.kind if isinstance(ty, ViewTy) else None


# `uniform::Uniform<T>` (device_api/uniform.py): a scalar the same in every thread of the
# launch, #[repr(transparent)]: one field
def uniform_ty(inner: Ty) -> StructTy:
    return StructTy(f"Uniform<{inner}>", (("0", inner),), True)


def uniform_inner(ty: Ty) -> Ty | None:
    """T of a `Uniform<T>`, else None."""
    if isinstance(ty, StructTy) and ty.name.startswith("Uniform<") and len(ty.fields) == 1:
        return ty.fields[0][1]
    return None


# `vector::F32x4` and its kin (device_api/vector.py): #[repr(C, align(A))] struct V([E; L])
def vector_ty(name: str) -> StructTy | None:
    from .device_api.vector import VECTORS
    from .types import SCALARS, ArrayTy
    if name not in VECTORS:
        return None
    elem, lanes, align = VECTORS[name]
    return StructTy(name, (("0", ArrayTy(SCALARS[elem], lanes)),), True, align)


def vector_parts(ty: Ty) -> tuple[Ty, int, int] | None:
    """(E, L, A) of a vector type, else None."""
    if isinstance(ty, StructTy) and ty == vector_ty(ty.name):
        arr = ty.fields[0][1]
        return arr.elem, arr.length, ty.align
    return None
