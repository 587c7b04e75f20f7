"""Type tables for the PTX emitter: how each language type is scalarised into leaf
registers, which register class and instruction suffix a leaf uses, and the C memory
layout of a type (used for pointers, shared arrays and locals kept in `.local` memory).

Leaves are the unit of everything below the MIR: a local of type `Option<&mut f32>`
is two leaves `[bool, &mut f32]` (the tag, then every variant's fields: `mir/layout.py`), a `&[f32]` is `[*mut f32 (data), usize (len)]`.
The order of `leaf_types(ty)` and of `memory_leaves(ty)` is the same, so a value can
move between registers and memory leaf by leaf.

Integers of 8 and 16 bits live in 32-bit registers, always held sign- or zero-extended
(by their own signedness) to 32 bits; `legalize.py` restores that form after the
operations that can break it. PTX has no 8-bit registers and nothing is gained from
16-bit ones: the hardware computes in 32 bits.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

from ..mir import layout
from ..types import (USIZE, ArrayTy, BoolTy, DisjointSliceTy, EnumTy, FloatTy, IntTy, NeverTy,
                     PtrTy, RefTy, SharedArrayTy, SliceTy, StructTy, ThreadIndexTy, TupleTy, Ty,
                     UnitTy)


class PtxEmitError(Exception):
    """A MIR construct that the emitter does not support (or malformed MIR). `span` is the
    statement it was raised for, when known, so the driver can report it as a diagnostic."""

    def __init__(self, message: str, span=None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


# ---------------------------------------------------------------------------
# Register classes

@dataclass(frozen=True)
class RegClass:
    name: str  # key used by the allocator
    prefix: str  # virtual register prefix, as nvcc spells them
    decl: str  # `.reg` declaration type
    mov: str  # suffix of `mov` for this class


PRED = RegClass("pred", "%p", ".pred", "pred")
B32 = RegClass("b32", "%r", ".b32", "b32")
B64 = RegClass("b64", "%rd", ".b64", "b64")
F32 = RegClass("f32", "%f", ".f32", "f32")
F64 = RegClass("f64", "%fd", ".f64", "f64")
H16 = RegClass("b16", "%rs", ".b16", "b16")  # f16 and bf16: the half instructions take .b16

# Declaration order of the `.reg` lines in every function.
REG_CLASSES = (PRED, H16, B32, B64, F32, F64)


def is_fat_pointer(ty: Ty) -> bool:
    """Pointer + length pairs: `&[T]`, `*const [T]` and `DisjointSlice<T>`."""
    if isinstance(ty, DisjointSliceTy):
        return True
    return isinstance(ty, (RefTy, PtrTy)) and isinstance(ty.inner, SliceTy)


def is_thin_pointer(ty: Ty) -> bool:
    return isinstance(ty, (RefTy, PtrTy)) and not isinstance(ty.inner, SliceTy)


def pointee(ty: Ty) -> Ty:
    """The type of `*p` for a pointer-like p (fat pointers point at a `[T]`)."""
    if isinstance(ty, DisjointSliceTy):
        return SliceTy(ty.elem)
    if isinstance(ty, (RefTy, PtrTy)):
        return ty.inner
    raise PtxEmitError(f"cannot dereference a value of type `{ty}`")


def elem_of(ty: Ty) -> Ty:
    """Element type of something indexable (`[T; N]`, `[T]`, `SharedArray<T, N>`)."""
    if isinstance(ty, (ArrayTy, SliceTy, SharedArrayTy, DisjointSliceTy)):
        return ty.elem
    raise PtxEmitError(f"cannot index a value of type `{ty}`")


def fat_data_leaf(ty: Ty) -> Ty:
    """The leaf type of a fat pointer's data half: a thin pointer to the element."""
    mutable = isinstance(ty, DisjointSliceTy) or ty.mutable
    return PtrTy(elem_of(pointee(ty)), mutable)


def reg_class(leaf: Ty) -> RegClass:
    if isinstance(leaf, BoolTy):
        return PRED
    if isinstance(leaf, IntTy) and leaf.bits <= 64:
        return B64 if leaf.bits == 64 else B32
    if isinstance(leaf, FloatTy):
        return F64 if leaf.bits == 64 else H16 if leaf.bits == 16 else F32
    if is_thin_pointer(leaf):
        return B64
    raise PtxEmitError(f"no register class for `{leaf}`")


def is_narrow(ty: Ty) -> bool:
    """8- and 16-bit integers: computed in 32-bit registers."""
    return isinstance(ty, IntTy) and ty.bits < 32


# ---------------------------------------------------------------------------
# Instruction suffixes

def arith(ty: Ty) -> str:
    """Suffix for arithmetic and comparisons: `s32`, `u64`, `f32` (narrow ints use 32)."""
    if isinstance(ty, IntTy):
        return ("s" if ty.signed else "u") + ("64" if ty.bits == 64 else "32")
    if isinstance(ty, FloatTy):
        return str(ty)  # f16, bf16, f32, f64
    if is_thin_pointer(ty):
        return "u64"
    raise PtxEmitError(f"no arithmetic on `{ty}`")


def bits_suffix(ty: Ty) -> str:
    """Untyped suffix of the register width: `b32`, `b64` (for logic ops, selp, shifts)."""
    cls = reg_class(ty)
    if cls is PRED:
        raise PtxEmitError("predicates have no bit width")
    return "b64" if cls in (B64, F64) else "b16" if cls is H16 else "b32"


def memory(ty: Ty) -> str:
    """Suffix of `ld`/`st` and of kernel `.param`s: the value's width in memory."""
    if isinstance(ty, BoolTy):
        return "u8"
    if isinstance(ty, IntTy):
        return ("s" if ty.signed else "u") + str(ty.bits)
    if isinstance(ty, FloatTy):
        return "b16" if ty.bits == 16 else f"f{ty.bits}"
    if is_thin_pointer(ty):
        return "u64"
    raise PtxEmitError(f"`{ty}` is not a memory leaf")


def store(ty: Ty) -> str:
    """Stores do not care about signedness; write them as nvcc does (`st.u32`)."""
    suffix = memory(ty)
    return "u" + suffix[1:] if suffix.startswith("s") else suffix


# ---------------------------------------------------------------------------
# Scalarisation into leaves

WIDE_HALVES = (IntTy(64, False), IntTy(64, False))  # a u128/i128: low, high (raw bits)


def is_wide(ty: Ty) -> bool:
    return isinstance(ty, IntTy) and ty.bits == 128


@lru_cache(maxsize=None)
def leaf_types(ty: Ty) -> tuple[Ty, ...]:
    if is_wide(ty):
        return WIDE_HALVES
    if isinstance(ty, (IntTy, FloatTy, BoolTy)):
        return (ty,)
    if isinstance(ty, (UnitTy, NeverTy)):
        return ()
    if isinstance(ty, ThreadIndexTy):
        return (USIZE,)
    if is_fat_pointer(ty):
        return (fat_data_leaf(ty), USIZE)
    if is_thin_pointer(ty):
        return (ty,)
    if isinstance(ty, ArrayTy):
        return leaf_types(ty.elem) * ty.length
    if isinstance(ty, (TupleTy, StructTy, EnumTy)):
        return tuple(leaf for f in fields_of(ty) for leaf in leaf_types(f))
    raise PtxEmitError(f"values of type `{ty}` cannot live in registers")


def fields_of(ty: Ty) -> tuple[Ty, ...]:
    """Field types of a struct, tuple or enum (its flat fields: tag, then every variant's)."""
    try:
        return layout.fields_of(ty)
    except layout.LayoutError as e:
        raise PtxEmitError(str(e)) from None


def aggregate_fields(ty: Ty) -> tuple[Ty, ...]:
    """The type of each flat operand of an `Aggregate` of type `ty` (mir/layout.py)."""
    if isinstance(ty, ArrayTy):
        return (ty.elem,) * ty.length
    return fields_of(ty)


def field_leaves(ty: Ty, index: int, variant: int | None = None) -> tuple[int, int, Ty]:
    """Leaf range [start, stop) and type of field `index` (of `variant`, for an enum) of a
    struct, tuple or enum."""
    fields = fields_of(ty)
    try:
        index = layout.field_slot(ty, index, variant)
    except layout.LayoutError as e:
        raise PtxEmitError(str(e)) from None
    if not 0 <= index < len(fields):
        raise PtxEmitError(f"`{ty}` has no field {index}")
    start = sum(len(leaf_types(f)) for f in fields[:index])
    return start, start + len(leaf_types(fields[index])), fields[index]


def element_leaves(ty: Ty, index: int) -> tuple[int, int, Ty]:
    """Leaf range and type of element `index` of a register array."""
    if not isinstance(ty, ArrayTy):
        raise PtxEmitError(f"cannot index `{ty}` held in registers")
    width = len(leaf_types(ty.elem))
    return index * width, (index + 1) * width, ty.elem


# ---------------------------------------------------------------------------
# Memory layout: `mir/layout.py`, the one layout shared with the simulator and the host

def mem_align(ty: Ty) -> int:
    return layout.align_of(ty)


def mem_size(ty: Ty) -> int:
    try:
        return layout.size_of(ty)
    except layout.LayoutError as e:
        raise PtxEmitError(str(e)) from None


def mem_field_offsets(ty: Ty) -> tuple[int, ...]:
    return layout.field_offsets(ty)


@lru_cache(maxsize=None)
def memory_leaves(ty: Ty) -> tuple[tuple[int, Ty], ...]:
    """(byte offset, leaf type) of every leaf, in `leaf_types` order."""
    if is_wide(ty):
        return ((0, WIDE_HALVES[0]), (8, WIDE_HALVES[1]))
    if isinstance(ty, (IntTy, FloatTy, BoolTy)) or is_thin_pointer(ty):
        return ((0, ty),)
    if isinstance(ty, ThreadIndexTy):
        return ((0, USIZE),)
    if is_fat_pointer(ty):
        return ((0, fat_data_leaf(ty)), (8, USIZE))
    if isinstance(ty, (UnitTy, NeverTy)):
        return ()
    if isinstance(ty, ArrayTy):
        size, inner = mem_size(ty.elem), memory_leaves(ty.elem)
        return tuple((i * size + off, t) for i in range(ty.length) for off, t in inner)
    if isinstance(ty, (TupleTy, StructTy, EnumTy)):
        return tuple((base + off, t)
                     for base, f in zip(mem_field_offsets(ty), fields_of(ty))
                     for off, t in memory_leaves(f))
    raise PtxEmitError(f"values of type `{ty}` cannot be loaded or stored")


# ---------------------------------------------------------------------------
# Immediates

def immediate(value: int | float | bool, ty: Ty) -> str:
    """An exact PTX literal of a constant of leaf type `ty`.

    Floats are written as raw bits (`0f3F800000`) so no decimal rounding happens;
    integers are wrapped to their width and written in the register's canonical form.
    """
    if isinstance(ty, BoolTy):
        return "1" if value else "0"
    if isinstance(ty, FloatTy):
        if ty.bits == 16:
            from .halves import half_bits
            return "0x%04X" % half_bits(float(value), ty)
        if ty.bits == 32:
            return "0f%08X" % struct.unpack("<I", struct.pack("<f", float(value)))[0]
        return "0d%016X" % struct.unpack("<Q", struct.pack("<d", float(value)))[0]
    if isinstance(ty, IntTy):
        return int_literal(int(value), ty.bits, ty.signed)
    if is_thin_pointer(ty):
        return int_literal(int(value), 64, False)
    raise PtxEmitError(f"no immediate of type `{ty}`")


def int_literal(value: int, bits: int, signed: bool) -> str:
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        return str(value - (1 << bits))
    return str(value) if value < 1 << 31 else "0x%X" % value
