"""The semantic types of the kernel language, shared by typeck, MIR, the emitter and the simulator.

All types are frozen dataclasses, so they compare and hash by value.
"""
from __future__ import annotations

from dataclasses import dataclass


class Ty:
    """Base of all types."""

    def __str__(self) -> str:  # overridden; Rust spelling
        return type(self).__name__


@dataclass(frozen=True)
class IntTy(Ty):
    bits: int
    signed: bool
    pointer_sized: bool = False  # usize/isize: 64-bit here, but distinct types as in Rust

    def __str__(self) -> str:
        if self.pointer_sized:
            return "isize" if self.signed else "usize"
        return ("i" if self.signed else "u") + str(self.bits)


@dataclass(frozen=True)
class CharTy(IntTy):
    """`char`: a Unicode scalar value (0..=0x10FFFF minus the surrogates). Below typeck it
    is a u32 (the subclass: the emitter and the simulator treat it as one); typeck keeps
    it apart from the integers (no arithmetic, no integer literals, `as` only to integers
    and from u8)."""

    bits: int = 32
    signed: bool = False

    def __str__(self) -> str:
        return "char"


@dataclass(frozen=True)
class FnPtrTy(IntTy):
    """`fn(A, B) -> R`: a function pointer. Below typeck it is a u64 (as `char` is a u32)
    holding the number typeck gave the function when its name was used as a value; a call
    through it dispatches on that number (lower/fn_values.py), so constant propagation
    turns a pointer whose function is known into a direct call. No arithmetic."""

    bits: int = 64
    signed: bool = False
    params: tuple = ()
    ret: "Ty | None" = None

    def __str__(self) -> str:
        ret = "" if self.ret is None or isinstance(self.ret, UnitTy) else f" -> {self.ret}"
        return f"fn({', '.join(map(str, self.params))}){ret}"


@dataclass(frozen=True)
class FloatTy(Ty):
    """`f16`, `bf16`, `f32`, `f64`. `brain` marks bf16 (16 bits like f16, with f32's
    exponent and an 8-bit significand). The half types are storage-and-arithmetic types:
    their arithmetic rounds to the half format after every operation (halves.py says how)."""

    bits: int
    brain: bool = False

    def __str__(self) -> str:
        return "bf16" if self.brain else f"f{self.bits}"

    @property
    def is_half(self) -> bool:
        return self.bits == 16


@dataclass(frozen=True)
class BoolTy(Ty):
    def __str__(self) -> str:
        return "bool"


@dataclass(frozen=True)
class UnitTy(Ty):
    def __str__(self) -> str:
        return "()"


@dataclass(frozen=True)
class NeverTy(Ty):
    def __str__(self) -> str:
        return "!"


@dataclass(frozen=True)
class ArrayTy(Ty):
    elem: Ty
    length: int

    def __str__(self) -> str:
        return f"[{self.elem}; {self.length}]"


@dataclass(frozen=True)
class TupleTy(Ty):
    elems: tuple[Ty, ...]

    def __str__(self) -> str:
        if len(self.elems) == 1:
            return f"({self.elems[0]},)"
        return "(" + ", ".join(map(str, self.elems)) + ")"


@dataclass(frozen=True)
class StructTy(Ty):
    name: str
    fields: tuple[tuple[str, Ty], ...]
    is_copy: bool = False
    align: int = 1  # `#[repr(align(N))]`: the least alignment, whatever the fields need

    def field_index(self, name: str) -> int | None:
        for i, (fname, _) in enumerate(self.fields):
            if fname == name:
                return i
        return None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class SliceTy(Ty):
    """The unsized `[T]`; appears only behind a reference (`&[T]`)."""

    elem: Ty

    def __str__(self) -> str:
        return f"[{self.elem}]"


@dataclass(frozen=True)
class RefTy(Ty):
    """`&T` / `&mut T`. `&[T]` is a fat reference (pointer + length)."""

    inner: Ty
    mutable: bool

    def __str__(self) -> str:
        return ("&mut " if self.mutable else "&") + str(self.inner)


@dataclass(frozen=True)
class PtrTy(Ty):
    """Raw pointers `*const T` / `*mut T`."""

    inner: Ty
    mutable: bool

    def __str__(self) -> str:
        return ("*mut " if self.mutable else "*const ") + str(self.inner)


@dataclass(frozen=True)
class DisjointSliceTy(Ty):
    """`DisjointSlice<T, I>`: writable global slice, one element per thread index."""

    elem: Ty
    index: str = "1d"  # "1d" | "2d:<stride>" | "runtime2d" | "warp" | "tiles:<n>" |
    #                    "rmtiles:<rows>:<cols>:<stride>" (device_api/views.py)

    def __str__(self) -> str:
        if self.index == "1d":
            return f"DisjointSlice<{self.elem}>"
        if self.index.startswith("2d:"):
            return f"DisjointSlice<{self.elem}, thread::Index2D<{self.index[3:]}>>"
        if self.index == "warp":
            return f"DisjointSlice<{self.elem}, thread::WarpIndex>"
        if self.index.startswith("tiles:"):  # `view::LinearTiles<N>`
            return f"DisjointSlice<{self.elem}, LinearTiles<{self.index[6:]}>>"
        if self.index.startswith("rmtiles:"):  # `view::RowMajorTiles<ROWS, COLS, STRIDE>`
            dims = self.index[8:].replace(":", ", ")
            return f"DisjointSlice<{self.elem}, RowMajorTiles<{dims}>>"
        return f"DisjointSlice<{self.elem}, thread::Runtime2DIndex>"


@dataclass(frozen=True)
class ThreadIndexTy(Ty):
    """A thread's unique index; neither Copy nor Clone. Represented as a usize."""

    def __str__(self) -> str:
        return "ThreadIndex"


@dataclass(frozen=True)
class VariantDef:
    """One variant of an enum: its name, how its fields are written ("unit", "tuple" or
    "struct") and its fields (tuple variants name them "0", "1", ...)."""

    name: str
    kind: str
    fields: tuple[tuple[str, Ty], ...] = ()

    def field_index(self, name: str) -> int | None:
        for i, (fname, _) in enumerate(self.fields):
            if fname == name:
                return i
        return None


@dataclass(frozen=True)
class EnumTy(Ty):
    """An enum: `Option<T>`, `Result<T, E>` and user enums alike.

    `discrs[i]` is variant i's discriminant (explicit `= 3` or the previous plus one);
    `tag` is the type that holds it in a value (the `#[repr(..)]` integer if given; `bool`
    for a two-variant enum with discriminants 0 and 1, such as `Option`; else the smallest
    integer that holds every discriminant). `args` are the generic arguments, for display
    only (`Option<f32>`). See `mir/layout.py` for how a value is laid out."""

    name: str
    variants: tuple[VariantDef, ...]
    discrs: tuple[int, ...]
    tag: Ty
    is_copy: bool = False
    args: tuple[Ty, ...] = ()

    def variant_index(self, name: str) -> int | None:
        for i, v in enumerate(self.variants):
            if v.name == name:
                return i
        return None

    def __str__(self) -> str:
        if self.args:
            return f"{self.name}<{', '.join(map(str, self.args))}>"
        return self.name


def enum_tag_ty(discrs: tuple[int, ...], repr_ty: Ty | None) -> Ty:
    """The type a value of an enum keeps its discriminant in (see `EnumTy`)."""
    if repr_ty is not None:
        return repr_ty
    if sorted(discrs) == [0, 1]:
        return BOOL
    lo, hi = min(discrs, default=0), max(discrs, default=0)
    for bits in (8, 16, 32, 64):
        if lo >= 0 and hi < 1 << bits:
            return IntTy(bits, False)
        if -(1 << (bits - 1)) <= lo and hi < 1 << (bits - 1):
            return IntTy(bits, True)
    return IntTy(64, True)


def option_ty(inner: Ty) -> EnumTy:
    """`Option<T>`: `None` (discriminant 0) | `Some(T)` (1), as core defines it."""
    return EnumTy("Option", (VariantDef("None", "unit"), VariantDef("Some", "tuple", (("0", inner),))),
                  (0, 1), BOOL, is_copy(inner), (inner,))


def result_ty(ok: Ty, err: Ty) -> EnumTy:
    """`Result<T, E>`: `Ok(T)` (discriminant 0) | `Err(E)` (1), as core defines it."""
    return EnumTy("Result", (VariantDef("Ok", "tuple", (("0", ok),)),
                             VariantDef("Err", "tuple", (("0", err),))),
                  (0, 1), BOOL, is_copy(ok) and is_copy(err), (ok, err))


def _cmp_ordering() -> "EnumTy":
    """`core::cmp::Ordering`: `#[repr(i8)] enum Ordering { Less = -1, Equal = 0, Greater = 1 }`
    with core's derives (Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)."""
    return EnumTy("Ordering", tuple(VariantDef(n, "unit") for n in ("Less", "Equal", "Greater")),
                  (-1, 0, 1), IntTy(8, True), True)


def is_option(ty: Ty) -> bool:
    return isinstance(ty, EnumTy) and ty.name == "Option" and len(ty.args) == 1


def is_result(ty: Ty) -> bool:
    return isinstance(ty, EnumTy) and ty.name == "Result" and len(ty.args) == 2


@dataclass(frozen=True)
class RangeTy(Ty):
    """`a..b`, `a..=b`, and `.step_by(s)` of them; only used as a `for` iterable."""

    elem: Ty

    def __str__(self) -> str:
        return f"Range<{self.elem}>"


@dataclass(frozen=True)
class IterTy(Ty):
    """An iterator chain (`a.iter().map(f)`, `(0..n).rev()`) yielding `item`; it exists only
    inside typeck and is consumed where it is written (lower/iterators.py turns the chain
    into one loop), so no MIR local ever has this type."""

    item: Ty

    def __str__(self) -> str:
        return f"impl Iterator<Item = {self.item}>"


@dataclass(frozen=True)
class ClosureTy(UnitTy):
    """The type of one closure expression (`key` tells closures apart, like rustc's
    `{closure@file:line:col}`); calls of it are inlined (lower/closures.py). Below typeck
    a closure value is zero-sized (a `UnitTy`): lowering keeps its captures by `key`, so a
    struct field holding one has nothing to store (lower/closures.py)."""

    key: int
    params: tuple[Ty, ...]
    ret: Ty
    where: str = ""

    def __str__(self) -> str:
        return f"{{closure@{self.where}}}" if self.where else "{closure}"


@dataclass(frozen=True)
class FnBoundTy(Ty):
    """`impl Fn(A) -> R` (FnMut, FnOnce): a closure parameter. A function with one is
    inlined at each call (lower/closures.py), the closure argument with it."""

    trait: str
    params: tuple[Ty, ...]
    ret: Ty

    def __str__(self) -> str:
        ret = "" if isinstance(self.ret, UnitTy) else f" -> {self.ret}"
        return f"impl {self.trait}({', '.join(map(str, self.params))}){ret}"


@dataclass(frozen=True)
class SharedArrayTy(Ty):
    """`SharedArray<T, N, ALIGN>`: a block-shared array; lives in `.shared` memory, aligned
    to ALIGN bytes when that is more than T's alignment (0: T's own, as cuda-oxide)."""

    elem: Ty
    length: int
    align: int = 0
    name: str = ""  # "Barrier": cuda-oxide's 8-byte mbarrier object, a `[u64; 1]` here

    def __str__(self) -> str:
        if self.name:
            return self.name
        extra = f", {self.align}" if self.align else ""
        return f"SharedArray<{self.elem}, {self.length}{extra}>"


BARRIER = SharedArrayTy(IntTy(64, False), 1, 8, "Barrier")
# `tma::TmaDescriptor`: a CUtensorMap, 128 opaque bytes the host encodes (64-byte aligned
# there); kernels take `*const TmaDescriptor` or `TmaDescriptor` (by value: left in its
# `.param`) and only pass it on to TMA instructions
TMA_DESCRIPTOR = StructTy("TmaDescriptor", (("opaque", ArrayTy(IntTy(64, False), 16)),), True)


@dataclass(frozen=True)
class AtomicTy(PtrTy):
    """`DeviceAtomicU32`, `BlockAtomicF32`, ...: a view of one scalar in global or shared
    memory through which every access is atomic. Below typeck it is a thin `*mut T` (hence
    the subclass: the emitter and the simulator treat it as one); `scope` is the PTX scope
    of its operations: "gpu" (`DeviceAtomic*`), "cta" (`BlockAtomic*`) or "sys"
    (`SystemAtomic*`: also ordered with the host and other GPUs)."""

    scope: str = "gpu"

    def __str__(self) -> str:
        prefix = {"cta": "Block", "sys": "System"}.get(self.scope, "Device")
        return f"{prefix}Atomic{str(self.inner).upper()}"


@dataclass(frozen=True)
class AtomicCellTy(Ty):
    """The element of a `&[DeviceAtomicU32]` (a kernel parameter): the atomic cell itself, laid
    out as its scalar. `cells[i]` is a place; its methods take a view of its address (an
    `AtomicTy`); it is never copied or moved."""

    inner: Ty
    scope: str = "gpu"

    def view(self) -> "AtomicTy":
        return AtomicTy(self.inner, True, self.scope)

    def __str__(self) -> str:
        return str(self.view())


@dataclass(frozen=True)
class OrderingTy(Ty):
    """`AtomicOrdering`: only ever written out as an argument of an atomic operation."""

    def __str__(self) -> str:
        return "AtomicOrdering"


@dataclass(frozen=True)
class InferTy(Ty):
    """An inference variable; kind is 'int', 'float' or 'any'. Only inside typeck."""

    var: int
    kind: str

    def __str__(self) -> str:
        return {"int": "{integer}", "float": "{float}"}.get(self.kind, "_")


@dataclass(frozen=True)
class ErrorTy(Ty):
    """The type of an expression that already produced an error; unifies with anything."""

    def __str__(self) -> str:
        return "{error}"


# Canonical instances ---------------------------------------------------------

I8, I16, I32, I64 = (IntTy(b, True) for b in (8, 16, 32, 64))
U8, U16, U32, U64 = (IntTy(b, False) for b in (8, 16, 32, 64))
# 128-bit integers: stored as one 16-byte value, computed in 64-bit halves (passes/wide_ints.py)
I128, U128 = IntTy(128, True), IntTy(128, False)
ISIZE, USIZE = IntTy(64, True, True), IntTy(64, False, True)
F32, F64 = FloatTy(32), FloatTy(64)
F16, BF16 = FloatTy(16), FloatTy(16, True)
CHAR = CharTy()
BOOL = BoolTy()
UNIT = UnitTy()
NEVER = NeverTy()
ERROR = ErrorTy()
THREAD_INDEX = ThreadIndexTy()
ORDERING = OrderingTy()
CMP_ORDERING = _cmp_ordering()
CMP_ORDERING_DERIVES = frozenset({"Clone", "Copy", "PartialEq", "Eq", "PartialOrd", "Ord",
                                  "Debug", "Hash"})
# `core::marker::PhantomData<T>`: zero-sized, whatever T is (T only matters to the type
# checker's generics, which oxidec monomorphises away; every instance is this one type)
PHANTOM_DATA = StructTy("PhantomData", (), is_copy=True)
PHANTOM_DATA_DERIVES = CMP_ORDERING_DERIVES | {"Default"}
# `core::convert::Infallible`: `enum Infallible {}`, no value ever exists (core derives
# the comparison traits for it)
INFALLIBLE = EnumTy("Infallible", (), (), IntTy(8, False), True)


def is_uninhabited(ty: Ty) -> bool:
    """A type with no values: an empty enum, or a struct, tuple or array (of length > 0)
    holding one -- what `assume_init` refuses to make (rustc's `assert_inhabited`)."""
    if isinstance(ty, EnumTy):
        return not ty.variants
    if isinstance(ty, NeverTy):
        return True
    if isinstance(ty, StructTy):
        return any(is_uninhabited(t) for _, t in ty.fields)
    if isinstance(ty, TupleTy):
        return any(is_uninhabited(t) for t in ty.elems)
    if isinstance(ty, ArrayTy):
        return isinstance(ty.length, int) and ty.length > 0 and is_uninhabited(ty.elem)
    return False
# `#[kernel(launch_context = ctx)]`: the launch context a kernel names (no data), and the
# 32-bit thread coordinates `thread::index_1d_u32(ctx)` / `coord_2d_u32(ctx)` give
LAUNCH_CONTEXT = StructTy("LaunchContext", (), True)
THREAD_INDEX32 = StructTy("ThreadIndex32", (("0", U32),))
THREAD_COORD32 = StructTy("ThreadCoord2D32", (("0", U32), ("1", U32)))
# cooperative groups: zero-sized handles; a tile's size is in its type
THREAD_BLOCK = StructTy("ThreadBlock", (), True)
GRID = StructTy("Grid", (), True)
CLUSTER = StructTy("Cluster", (), True)
COALESCED = StructTy("CoalescedThreads", (("mask", U32),), True)


def warp_tile_ty(n: int) -> StructTy:
    return StructTy(f"WarpTile<{n}>", (), True)


def warp_tile_size(ty: Ty) -> int | None:
    """N of a `WarpTile<N>` handle type, else None."""
    if isinstance(ty, StructTy) and ty.name.startswith("WarpTile<") and not ty.fields:
        return int(ty.name[len("WarpTile<"):-1])
    return None

# Element types of the atomic views: `DeviceAtomicU32`, `BlockAtomicF64`, ...
ATOMIC_ELEMS: dict[str, Ty] = {}  # "U32" -> u32, filled below

SCALARS: dict[str, Ty] = {
    "i8": I8, "i16": I16, "i32": I32, "i64": I64, "i128": I128, "isize": ISIZE,
    "u8": U8, "u16": U16, "u32": U32, "u64": U64, "u128": U128, "usize": USIZE,
    "f16": F16, "bf16": BF16, "f32": F32, "f64": F64, "bool": BOOL, "char": CHAR,
}


ATOMIC_ELEMS.update({"U32": U32, "I32": I32, "U64": U64, "I64": I64, "F16": F16, "F32": F32,
                     "F64": F64})


def atomic_type_name(name: str) -> AtomicTy | None:
    """The view type a name such as `DeviceAtomicU32` / `BlockAtomicF32` denotes, if any."""
    for prefix, scope in (("DeviceAtomic", "gpu"), ("BlockAtomic", "cta"),
                          ("SystemAtomic", "sys")):
        if name.startswith(prefix) and name[len(prefix):] in ATOMIC_ELEMS:
            return AtomicTy(ATOMIC_ELEMS[name[len(prefix):]], True, scope)
    return None


def is_integer(ty: Ty) -> bool:
    return isinstance(ty, IntTy) and not isinstance(ty, (CharTy, FnPtrTy))


def is_float(ty: Ty) -> bool:
    return isinstance(ty, FloatTy)


def is_numeric(ty: Ty) -> bool:
    return is_integer(ty) or isinstance(ty, FloatTy)


def is_scalar(ty: Ty) -> bool:
    return isinstance(ty, (IntTy, FloatTy, BoolTy))


def is_zero_sized(ty: Ty) -> bool:
    """A type with no bytes: (), an empty array, a struct or tuple of zero-sized parts."""
    if isinstance(ty, ArrayTy):
        return ty.length == 0 or is_zero_sized(ty.elem)
    if isinstance(ty, TupleTy):
        return all(is_zero_sized(e) for e in ty.elems)
    if isinstance(ty, StructTy):
        return all(is_zero_sized(f) for _, f in ty.fields)
    return isinstance(ty, UnitTy) and not isinstance(ty, ClosureTy)


def is_copy(ty: Ty) -> bool:
    """Rust's Copy: scalars, shared refs, raw pointers, arrays/tuples of Copy, Copy structs."""
    if isinstance(ty, (IntTy, FloatTy, BoolTy, UnitTy, NeverTy, PtrTy, ErrorTy)):
        return True
    if isinstance(ty, RefTy):
        return not ty.mutable
    if isinstance(ty, ArrayTy):
        return is_copy(ty.elem)
    if isinstance(ty, TupleTy):
        return all(is_copy(t) for t in ty.elems)
    if isinstance(ty, StructTy):
        return ty.is_copy
    if isinstance(ty, EnumTy):
        return ty.is_copy
    if isinstance(ty, RangeTy):
        return False
    return False


# (significand bits with the implicit one, minimum normal exponent, maximum exponent)
FLOAT_FORMATS = {"f16": (11, -14, 15), "bf16": (8, -126, 127), "f32": (24, -126, 127),
                 "f64": (53, -1022, 1023)}


def float_format(ty: FloatTy) -> tuple[int, int, int]:
    return FLOAT_FORMATS[str(ty)]


def is_half(ty: Ty) -> bool:
    return isinstance(ty, FloatTy) and ty.bits == 16


def float_max(ty: FloatTy) -> float:
    p, _, emax = float_format(ty)
    return (2.0 - 2.0 ** (1 - p)) * 2.0 ** emax


def float_epsilon(ty: FloatTy) -> float:
    return 2.0 ** (1 - float_format(ty)[0])


def float_min_positive(ty: FloatTy) -> float:
    return 2.0 ** float_format(ty)[1]


def int_range(ty: IntTy) -> tuple[int, int]:
    if ty.signed:
        return -(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1
    return 0, (1 << ty.bits) - 1


def wrap_int(value: int, ty: IntTy) -> int:
    """Two's-complement wrap of a Python int to the range of ty."""
    value &= (1 << ty.bits) - 1
    if ty.signed and value >= 1 << (ty.bits - 1):
        value -= 1 << ty.bits
    return value


# the scalar types' associated constants (`u32::MAX`, `f32::consts::PI`)
from .scalar_consts import (FLOAT_CONSTS, FLOAT_INT_CONSTS, HALF_CONSTS,  # noqa: E402,F401
                            SCALAR_ASSOC_CONSTS)

# the handle types of parts of the device API (after everything they are built of)
from .device_types import (BARRIER_TOKEN, THREAD_INDEX_2D, Runtime2DSliceTy,  # noqa: E402,F401
                           cusimd_parts, cusimd_ty, managed_barrier_parts, managed_barrier_ty,
                           runtime2d_slice_ty, uniform_inner, uniform_ty, ViewTy, view_kind,
                           view_ty, local_index_ty, local_index_bound, RuntimeTilesSliceTy,
                           runtime_tiles_slice_ty, vector_ty, vector_parts)
