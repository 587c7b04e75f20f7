"""The kernels' launch ABI as a C or Rust host spells it, derived from the compiled program's
kernel signatures (`oxidec.signature`), never from the source text.

Each Rust parameter becomes, in the launcher and in the PTX `.param` list alike:
- a scalar `T`              -> `T` by value (C `bool` is one byte, as the `.u8` param);
- `&[T]`                    -> `const T* a, size_t a_len` (C) / `DeviceSlice<T>` (Rust);
- `DisjointSlice<T>`        -> `oxidec_disjoint_T { T* ptr; size_t len; }` / `DisjointSlice<T>`;
- `&T`, `*const T`, `*mut T`-> a device pointer `const T*` / `T*` (C), `DevicePtr<T>` (Rust);
- a struct, tuple, array or Option by value -> a `#[repr(C)]`-matching struct, laid out by
  `ptx.types` (the emitter's one C layout) and checked with static asserts in the output.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import types as T
from ..mir.layout import align_of as mem_align, size_of as mem_size
from ..signature import KernelSignature

C_SCALARS = {("i", 8): "int8_t", ("i", 16): "int16_t", ("i", 32): "int32_t",
             ("i", 64): "int64_t", ("u", 8): "uint8_t", ("u", 16): "uint16_t",
             ("u", 32): "uint32_t", ("u", 64): "uint64_t",
             ("i", 128): "__int128", ("u", 128): "unsigned __int128"}  # GCC/Clang/NVCC
C_KEYWORDS = frozenset("""auto bool break case catch char class const continue default delete do
double else enum explicit extern float for friend goto if inline int long mutable namespace new
operator private protected public register restrict return short signed sizeof static struct
switch template this throw try typedef typename union unsigned using virtual void volatile while
grid block stream shared_bytes m""".split())
RUST_KEYWORDS = frozenset("""grid block stream shared_bytes self""".split())


class HostAbiError(Exception):
    """A kernel parameter type the host launchers cannot express."""


def elem_scalar(ty: T.Ty) -> T.Ty:
    """Atomic views (`DeviceAtomicU32`) are their scalar in memory."""
    return ty.inner if isinstance(ty, T.AtomicTy) else ty


def c_ident(name: str) -> str:
    return name + "_" if name in C_KEYWORDS else name


def rust_ident(name: str) -> str:
    return name + "_" if name in RUST_KEYWORDS else name


def struct_ident(ty: T.StructTy) -> str:
    """A struct's name as an identifier: an instance of a generic struct, `Pair<f32>`, is
    `Pair_f32` (`$` of a module-qualified key stays: C and Rust would reject it anyway)."""
    if "<" not in ty.name:
        return ty.name
    return re.sub(r"_+", "_", re.sub(r"[^\w$]", "_", ty.name)).strip("_")


def aggregate_name(ty: T.Ty, prefix: str) -> str:
    """The C/Rust name of a struct, tuple, array or Option type passed by value."""
    if isinstance(ty, T.StructTy):
        return f"{prefix}_{struct_ident(ty)}"
    return f"{prefix}_{type_tag(ty)}"


def type_tag(ty: T.Ty) -> str:
    """An identifier fragment naming a type: `f32`, `tuple_u32_f32`, `array_f32_4`."""
    ty = elem_scalar(ty)
    if isinstance(ty, (T.IntTy, T.FloatTy, T.BoolTy)):
        return str(ty)
    if isinstance(ty, T.StructTy):
        return struct_ident(ty)
    if isinstance(ty, T.TupleTy):
        return "tuple_" + "_".join(type_tag(e) for e in ty.elems)
    if isinstance(ty, T.ArrayTy):
        return f"array_{type_tag(ty.elem)}_{ty.length}"
    if isinstance(ty, T.EnumTy):
        return "_".join([ty.name.lower()] + [type_tag(a) for a in ty.args])
    raise HostAbiError(f"values of type `{ty}` cannot cross the host boundary")


def is_aggregate(ty: T.Ty) -> bool:
    return isinstance(ty, (T.StructTy, T.TupleTy, T.ArrayTy, T.EnumTy))


@dataclass(frozen=True)
class Aggregate:
    """A by-value type to declare: C field list in layout order."""

    name: str
    ty: T.Ty
    fields: tuple[tuple[str, T.Ty], ...]  # (field name, type); arrays have one field `elems`
    size: int
    align: int


def aggregate_fields(ty: T.Ty) -> tuple[tuple[str, T.Ty], ...]:
    if isinstance(ty, T.StructTy):
        return ty.fields
    if isinstance(ty, T.TupleTy):
        return tuple((f"_{i}", e) for i, e in enumerate(ty.elems))
    if isinstance(ty, T.EnumTy):  # mir/layout.py: the tag, then every variant's fields
        return (("tag", ty.tag),) + tuple((f"{v.name.lower()}_{n}", t) for v in ty.variants
                                          for n, t in v.fields)
    if isinstance(ty, T.ArrayTy):
        return (("elems", ty),)
    raise HostAbiError(f"`{ty}` has no fields")


def collect_aggregates(sigs: list[KernelSignature], prefix: str) -> list[Aggregate]:
    """Every by-value type the launchers mention, each after the types it contains. A C host
    wraps an array passed by value in a struct (C cannot pass arrays); Rust uses `[T; N]`."""
    out: dict[str, Aggregate] = {}

    def visit(ty: T.Ty) -> None:
        ty = elem_scalar(ty)
        if isinstance(ty, T.ArrayTy):
            visit(ty.elem)
        if not is_aggregate(ty):
            check_scalar(ty)
            return
        name = aggregate_name(ty, prefix)
        if name in out:
            return
        fields = aggregate_fields(ty)
        if not isinstance(ty, T.ArrayTy):
            for _, f in fields:
                visit(f)
        out[name] = Aggregate(name, ty, fields, mem_size(ty), mem_align(ty))

    for sig in sigs:
        for p in sig.params:
            visit(p.ty if p.kind == "scalar" else p.elem)
    return list(out.values())


def check_scalar(ty: T.Ty) -> None:
    if not isinstance(ty, (T.IntTy, T.FloatTy, T.BoolTy)):
        raise HostAbiError(f"values of type `{ty}` cannot cross the host boundary")


def launch_bounds_threads(sig: KernelSignature) -> int | None:
    bounds = sig.launch.bounds if sig.launch is not None else None
    if not bounds:
        return None
    return int(bounds[0] if isinstance(bounds, (tuple, list)) else bounds)


def no_runtime2d(p) -> None:
    """The generated C and Rust launchers pass slices as (pointer, length) only."""
    if p.kind == "disjoint2d":
        raise HostAbiError(f"parameter `{p.name}: {p.ty}` cannot cross the host boundary of a "
                           "generated launcher yet (launch it from Python or `oxidec run`)")
