"""The one memory layout of every type: size, alignment and field offsets, used by the PTX
emitter, the simulator and the host runtime alike (so a value copied between them keeps
its bytes).

Scalars, pointers, arrays, tuples and structs use C layout (`#[repr(C)]`): fields in
declaration order, each at the next offset that is a multiple of its alignment; the size
is rounded up to the alignment. A fat pointer (`&[T]`, `DisjointSlice<T>`) is a data
pointer and a `usize` length (16 bytes); `ThreadIndex` is a `usize`.

Enums: the tag (the discriminant, of type `EnumTy.tag`), then the fields of every variant
in order, as if the enum were the struct

    struct E { tag, v0_f0, v0_f1, ..., v1_f0, ... }

This is rustc's `#[repr(C)]` enum layout (tag, then payload) except that the variants'
payloads follow one another instead of sharing one union. Why: below the MIR a value is
scalarised leaf by leaf (registers in PTX, NumPy arrays in the simulator), and with
disjoint storage every variant's fields are ordinary leaves: building, copying, storing
and loading an enum never depends on its tag at run time. A fieldless enum is just its
tag, which is exactly rustc's layout (`#[repr(u8)] enum` is one byte); `Option<T>` is
`{ bool, T }`. The cost is space for enums whose variants carry large payloads.

So below the MIR an enum *is* a struct of these "flat" fields; the MIR's `Field(j,
variant=v)` (rustc's `(x as V).j`) names flat field `field_slot(ty, j, v)`.
"""
from __future__ import annotations

from functools import lru_cache

from .. import types as T


class LayoutError(Exception):
    """A type that has no memory layout (or no such field)."""


def is_fat(ty: T.Ty) -> bool:
    """A (data pointer, length) pair: `&[T]`, `*const [T]`, `DisjointSlice<T>`."""
    if isinstance(ty, T.DisjointSliceTy):
        return True
    return isinstance(ty, (T.RefTy, T.PtrTy)) and isinstance(ty.inner, T.SliceTy)


@lru_cache(maxsize=None)
def fields_of(ty: T.Ty) -> tuple[T.Ty, ...]:
    """The (flat) field types of a struct, tuple or enum, in memory order."""
    if isinstance(ty, T.StructTy):
        return tuple(t for _, t in ty.fields)
    if isinstance(ty, T.TupleTy):
        return ty.elems
    if isinstance(ty, T.EnumTy):
        return (ty.tag,) + tuple(t for v in ty.variants for _, t in v.fields)
    raise LayoutError(f"`{ty}` has no fields")


def field_slot(ty: T.Ty, index: int, variant: int | None = None) -> int:
    """The flat field number of field `index` (of variant `variant`, for an enum)."""
    if isinstance(ty, T.EnumTy):
        if variant is None or not 0 <= variant < len(ty.variants):
            raise LayoutError(f"field {index} of `{ty}` without a valid variant")
        if not 0 <= index < len(ty.variants[variant].fields):
            raise LayoutError(f"variant `{ty.variants[variant].name}` of `{ty}` has no field "
                              f"{index}")
        return 1 + sum(len(v.fields) for v in ty.variants[:variant]) + index
    if variant is not None:
        raise LayoutError(f"`{ty}` is not an enum")
    if not 0 <= index < len(fields_of(ty)):
        raise LayoutError(f"`{ty}` has no field {index}")
    return index


def variant_slots(ty: T.EnumTy, variant: int) -> range:
    """The flat field numbers of one variant's fields."""
    start = 1 + sum(len(v.fields) for v in ty.variants[:variant])
    return range(start, start + len(ty.variants[variant].fields))


@lru_cache(maxsize=None)
def align_of(ty: T.Ty) -> int:
    if isinstance(ty, (T.IntTy, T.FloatTy)):
        return ty.bits // 8
    if isinstance(ty, T.AtomicCellTy):
        return align_of(ty.inner)
    if isinstance(ty, (T.RefTy, T.PtrTy, T.DisjointSliceTy, T.ThreadIndexTy)):
        return 8
    if isinstance(ty, T.SharedArrayTy):
        return max(align_of(ty.elem), ty.align)
    if isinstance(ty, (T.ArrayTy, T.SliceTy)):
        return align_of(ty.elem)
    if isinstance(ty, (T.TupleTy, T.StructTy, T.EnumTy)):
        least = ty.align if isinstance(ty, T.StructTy) else 1
        return max([align_of(f) for f in fields_of(ty)] + [least])
    return 1  # bool, (), !


@lru_cache(maxsize=None)
def size_of(ty: T.Ty) -> int:
    if isinstance(ty, (T.IntTy, T.FloatTy)):
        return ty.bits // 8
    if isinstance(ty, T.AtomicCellTy):
        return size_of(ty.inner)
    if isinstance(ty, T.BoolTy):
        return 1
    if isinstance(ty, (T.UnitTy, T.NeverTy)):
        return 0
    if is_fat(ty):
        return 16
    if isinstance(ty, (T.RefTy, T.PtrTy, T.ThreadIndexTy)):
        return 8
    if isinstance(ty, (T.ArrayTy, T.SharedArrayTy)):
        return size_of(ty.elem) * ty.length
    if isinstance(ty, (T.TupleTy, T.StructTy, T.EnumTy)):
        offsets, fields = field_offsets(ty), fields_of(ty)
        end = offsets[-1] + size_of(fields[-1]) if offsets else 0
        return round_up(end, align_of(ty))
    raise LayoutError(f"`{ty}` has no size in memory")


@lru_cache(maxsize=None)
def field_offsets(ty: T.Ty) -> tuple[int, ...]:
    """Byte offset of every flat field."""
    offsets, off = [], 0
    for f in fields_of(ty):
        off = round_up(off, align_of(f))
        offsets.append(off)
        off += size_of(f)
    return tuple(offsets)


def round_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


def flat_operands(rv) -> tuple:
    """The operand of every flat field of an `Aggregate` (None where a field is left
    undefined: the other variants' fields of an enum built as one variant)."""
    from .syntax import Constant
    ty = rv.ty
    if not isinstance(ty, T.EnumTy) or rv.variant is None:
        return tuple(rv.operands)
    out: list = [None] * len(fields_of(ty))
    out[0] = tag_constant(ty, rv.variant)
    for slot, op in zip(variant_slots(ty, rv.variant), rv.operands):
        out[slot] = op
    return tuple(out)


def tag_constant(ty: T.EnumTy, variant: int):
    """The discriminant of `variant` as a MIR constant of the enum's tag type."""
    from .syntax import Constant
    d = ty.discrs[variant]
    return Constant(bool(d) if isinstance(ty.tag, T.BoolTy) else d, ty.tag)
