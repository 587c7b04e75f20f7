"""How the simulator represents values.

Every type is first mapped to a *canonical* type built only from scalars (`IntTy`, `FloatTy`,
`BoolTy`), `TupleTy` and `ArrayTy`:

    ThreadIndex, &T, *const T, *mut T   -> u64 (an address, see memory.py)
    &[T], DisjointSlice<T>              -> (u64, u64)   data address, element count
    struct S { a: A, b: B }             -> (A, B)       same C layout as the emitter's
    enum E { .. }                       -> (tag, every variant's fields...)  (mir/layout.py)
    SharedArray<T, N>                   -> [T; N]
    (), !                               -> ()

A *value* of a canonical type for n lanes is a tree: a NumPy array of shape (n, *dims) for a
scalar, a Python tuple for a tuple. Arrays are not nodes of the tree: `[T; N]` is the tree
of T whose leaves carry one more axis of length N (outer arrays first), so `a[i].f[j]` on
`a: [S; 4]` reads leaf `f` of shape (n, 4, M) at `[lanes, i, j]`. Lane-vectorised code never
loops over lanes.

`leaves(cty)` lists the scalar leaves in memory order with the byte offset of every element,
which is what memory loads/stores and references to locals need.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import types as T
from ..mir import layout
from .errors import SimError

U64 = T.IntTy(64, False)
FAT = T.TupleTy((U64, U64))
UNIT = T.TupleTy(())

_DTYPES = {
    (8, True): np.dtype(np.int8), (16, True): np.dtype(np.int16),
    (32, True): np.dtype(np.int32), (64, True): np.dtype(np.int64),
    (8, False): np.dtype(np.uint8), (16, False): np.dtype(np.uint16),
    (32, False): np.dtype(np.uint32), (64, False): np.dtype(np.uint64),
}
BOOL_DTYPE = np.dtype(np.bool_)
# u128/i128: two 64-bit halves, low first (little-endian memory order); only stored, moved and
# split into halves by `wide_lo`/`wide_hi`: passes/wide_ints.py computes in 64 bits
WIDE_DTYPES = {False: np.dtype([("lo", "<u8"), ("hi", "<u8")]),
               True: np.dtype([("lo", "<u8"), ("hi", "<i8")])}


def wide_value(value: int, signed: bool):
    """The structured scalar of a 128-bit integer constant."""
    v = value & ((1 << 128) - 1)
    hi = v >> 64
    if signed and hi >> 63:
        hi -= 1 << 64
    return np.array((v & ((1 << 64) - 1), hi), dtype=WIDE_DTYPES[signed])[()]


def is_fat(ty: T.Ty) -> bool:
    """A (pointer, length) pair: `&[T]`, `*const [T]`, `DisjointSlice<T>`."""
    if isinstance(ty, T.DisjointSliceTy):
        return True
    return isinstance(ty, (T.RefTy, T.PtrTy)) and isinstance(ty.inner, T.SliceTy)


@lru_cache(maxsize=None)
def canon(ty: T.Ty) -> T.Ty:
    if isinstance(ty, T.AtomicCellTy):
        return canon(ty.inner)
    if isinstance(ty, T.IntTy):
        return T.IntTy(ty.bits, ty.signed)
    if isinstance(ty, (T.FloatTy, T.BoolTy)):
        return ty
    if isinstance(ty, T.ThreadIndexTy):
        return U64
    if is_fat(ty):
        return FAT
    if isinstance(ty, (T.RefTy, T.PtrTy)):
        return U64
    if isinstance(ty, T.TupleTy):
        return T.TupleTy(tuple(canon(e) for e in ty.elems))
    if isinstance(ty, T.StructTy):
        return T.TupleTy(tuple(canon(f) for _, f in ty.fields))
    if isinstance(ty, T.EnumTy):
        return T.TupleTy(tuple(canon(f) for f in layout.fields_of(ty)))
    if isinstance(ty, (T.ArrayTy, T.SharedArrayTy)):
        return T.ArrayTy(canon(ty.elem), ty.length)
    if isinstance(ty, (T.UnitTy, T.NeverTy)):
        return UNIT
    if isinstance(ty, T.SliceTy):
        return T.SliceTy(canon(ty.elem))  # unsized: only ever a memory place
    raise SimError(f"the simulator cannot represent values of type `{ty}`")


def scalar_dtype(cty: T.Ty) -> np.dtype | None:
    """The dtype of a canonical scalar type; None for aggregates."""
    if isinstance(cty, T.IntTy):
        if cty.bits == 128:
            return WIDE_DTYPES[cty.signed]
        return _DTYPES[(cty.bits, cty.signed)]
    if isinstance(cty, T.FloatTy):  # a half is its bits (sim/halves.py)
        return np.dtype({16: np.uint16, 32: np.float32, 64: np.float64}[cty.bits])
    if isinstance(cty, T.BoolTy):
        return BOOL_DTYPE
    return None


def dtype_of(ty: T.Ty) -> np.dtype | None:
    """The dtype of any scalar-like type (u64 for thin pointers); None for aggregates."""
    return scalar_dtype(canon(ty))


def size_of(cty: T.Ty) -> int:
    return layout.size_of(cty)


def align_of(cty: T.Ty) -> int:
    return layout.align_of(cty)


def field_offsets(cty: T.TupleTy) -> tuple[int, ...]:
    return layout.field_offsets(cty)


# ---------------------------------------------------------------------------
# Leaves

@dataclass(frozen=True, eq=False)
class Leaf:
    path: tuple[int, ...]  # tuple indices from the root
    dtype: np.dtype
    dims: tuple[int, ...]  # array axes above this scalar, outermost first
    offsets: np.ndarray  # uint64, shape dims: byte offset of each element in the value


@lru_cache(maxsize=None)
def leaves(cty: T.Ty) -> tuple[Leaf, ...]:
    out: list[Leaf] = []

    def walk(t: T.Ty, path: tuple[int, ...], dims: tuple[int, ...], grid: np.ndarray) -> None:
        dt = scalar_dtype(t)
        if dt is not None:
            out.append(Leaf(path, dt, dims, grid.astype(np.uint64)))
        elif isinstance(t, T.TupleTy):
            for i, (e, off) in enumerate(zip(t.elems, field_offsets(t))):
                walk(e, path + (i,), dims, grid + off)
        elif isinstance(t, T.ArrayTy):
            step = size_of(t.elem)
            walk(t.elem, path, dims + (t.length,),
                 grid[..., None] + np.arange(t.length, dtype=np.int64) * step)
        else:
            raise SimError(f"no memory layout for `{t}`")

    walk(cty, (), (), np.zeros((), dtype=np.int64))
    return tuple(out)


@dataclass(frozen=True, eq=False)
class ByteMap:
    """For references into a local: which leaf element starts at each byte of the value."""

    leaf: np.ndarray  # int64 per byte, -1 where no scalar starts
    elem: np.ndarray  # int64 per byte: flat element index within the leaf's dims


@lru_cache(maxsize=None)
def byte_map(cty: T.Ty) -> ByteMap:
    n = size_of(cty)
    leaf = np.full(max(n, 1), -1, dtype=np.int64)
    elem = np.zeros(max(n, 1), dtype=np.int64)
    for j, lf in enumerate(leaves(cty)):
        offs = lf.offsets.reshape(-1).astype(np.int64)
        leaf[offs] = j
        elem[offs] = np.arange(offs.size)
    return ByteMap(leaf, elem)


# ---------------------------------------------------------------------------
# Trees

def zeros(cty: T.Ty, n: int):
    """A zero value of a canonical type for n lanes."""
    dt = scalar_dtype(cty)
    if dt is not None:
        return np.zeros(n, dtype=dt)
    return _zeros(cty, (n,))


def poison(cty: T.Ty, n: int):
    """The value of a local before its first write: every byte 0xA5 (bools true), never a
    plausible zero, so that a read of an unwritten local shows in the outputs (the GPU reads
    whatever its register holds) instead of passing as 0."""
    return _filled(cty, (n,))


def _filled(cty: T.Ty, shape: tuple[int, ...]):
    dt = scalar_dtype(cty)
    if dt is not None:
        if dt.kind == "b":
            return np.ones(shape, dtype=dt)
        return np.full(shape + (dt.itemsize,), 0xA5, dtype=np.uint8).view(dt).reshape(shape)
    if isinstance(cty, T.TupleTy):
        return tuple(_filled(e, shape) for e in cty.elems)
    if isinstance(cty, T.ArrayTy):
        return _filled(cty.elem, shape + (cty.length,))
    raise SimError(f"cannot make a value of type `{cty}`")


def _zeros(cty: T.Ty, shape: tuple[int, ...]):
    dt = scalar_dtype(cty)
    if dt is not None:
        return np.zeros(shape, dtype=dt)
    if isinstance(cty, T.TupleTy):
        return tuple(_zeros(e, shape) for e in cty.elems)
    if isinstance(cty, T.ArrayTy):
        return _zeros(cty.elem, shape + (cty.length,))
    raise SimError(f"cannot make a value of type `{cty}`")


def assemble(cty: T.Ty, values):
    """Build a tree from an iterator of leaf arrays in `leaves` order."""
    if scalar_dtype(cty) is not None:
        return next(values)
    if isinstance(cty, T.TupleTy):
        return tuple(assemble(e, values) for e in cty.elems)
    if isinstance(cty, T.ArrayTy):
        return assemble(cty.elem, values)
    raise SimError(f"cannot build a value of type `{cty}`")


def flatten(tree) -> list:
    """The leaf arrays of a tree in `leaves` order."""
    if isinstance(tree, tuple):
        out = []
        for t in tree:
            out.extend(flatten(t))
        return out
    return [tree]


def tree_map(fn, tree, *rest):
    if isinstance(tree, tuple):
        return tuple(tree_map(fn, *children) for children in zip(tree, *rest))
    return fn(tree, *rest)


def tree_apply(fn, tree, *rest) -> None:
    """Like tree_map, for side effects."""
    if isinstance(tree, tuple):
        for children in zip(tree, *rest):
            tree_apply(fn, *children)
    else:
        fn(tree, *rest)
