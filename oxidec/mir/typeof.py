"""The types of MIR places, operands and rvalues.

Shared by the verifier, the passes, the emitter and the simulator, so that they all read
a projection the same way:

    Deref    of &T / &mut T / *const T / *mut T   -> T
    Deref    of DisjointSlice<T>                  -> [T]   (its data)
    Index    / ConstIndex of [T], [T; N], SharedArray<T, N>  -> T
    Field(i) of a struct or tuple                 -> its i-th field
    Field(j, variant=v) of an enum                -> field j of variant v
    Discriminant(e)                               -> the enum's tag type

so `(*_3)[_4]` with `_3: &[f32]` or `_3: DisjointSlice<f32>` has type `f32`.
"""
from __future__ import annotations

from ..device_api.ops import OPS
from ..types import (
    BOOL, SCALARS, USIZE, ArrayTy, DisjointSliceTy, EnumTy, PtrTy, RefTy, SharedArrayTy, SliceTy,
    StructTy, TupleTy, Ty,
)
from .syntax import (
    Aggregate, AtomicOp, BinaryOp, Body, Cast, COMPARISONS, ConstIndex, Constant, Copy, Deref,
    Discriminant,
    Field, Index, Intrinsic, Len, Move, Operand, Place, Projection, Ref, Repeat, Rvalue, StaticRef,
    UnaryOp, Use,
)


class MirTypeError(Exception):
    """A projection that does not apply to the type it is used on."""


def project_ty(ty: Ty, proj: Projection) -> Ty:
    if isinstance(proj, Deref):
        if isinstance(ty, (RefTy, PtrTy)):
            return ty.inner
        if isinstance(ty, DisjointSliceTy):
            return SliceTy(ty.elem)
        raise MirTypeError(f"cannot dereference a value of type `{ty}`")
    if isinstance(proj, (Index, ConstIndex)):
        if isinstance(ty, (SliceTy, ArrayTy, SharedArrayTy)):
            return ty.elem
        raise MirTypeError(f"cannot index into a value of type `{ty}`")
    if isinstance(proj, Field):
        i = proj.index
        if isinstance(ty, EnumTy) and proj.variant is not None \
                and 0 <= proj.variant < len(ty.variants) \
                and 0 <= i < len(ty.variants[proj.variant].fields):
            return ty.variants[proj.variant].fields[i][1]
        if proj.variant is not None:
            raise MirTypeError(f"no field {i} of variant {proj.variant} on type `{ty}`")
        if isinstance(ty, StructTy) and 0 <= i < len(ty.fields):
            return ty.fields[i][1]
        if isinstance(ty, TupleTy) and 0 <= i < len(ty.elems):
            return ty.elems[i]
        raise MirTypeError(f"no field {i} on type `{ty}`")
    raise MirTypeError(f"unknown projection {proj!r}")


def place_ty(body: Body, place: Place) -> Ty:
    """The type of a place; raises `MirTypeError` (or IndexError for a bad local)."""
    ty = body.locals[place.local].ty
    for proj in place.projection:
        ty = project_ty(ty, proj)
    return ty


def operand_ty(body: Body, op: Operand) -> Ty:
    if isinstance(op, Constant):
        return op.ty
    assert isinstance(op, (Copy, Move)), op
    return place_ty(body, op.place)


def intrinsic_ty(name: str, arg_tys: list[Ty]) -> Ty | None:
    """The result type of an intrinsic, from its row in the device API registry; None for
    names it does not know and for results the destination decides (`bitcast`)."""
    op = OPS.get(name)
    if op is None or op.effect:
        return None
    if op.result in SCALARS:
        return SCALARS[op.result]
    if op.result.startswith("arg"):
        i = int(op.result[3:])
        return arg_tys[i] if i < len(arg_tys) else None
    return None


def rvalue_ty(body: Body, rv: Rvalue) -> Ty | None:
    """The type an rvalue produces, or None where the body alone cannot tell (StaticRef,
    unknown intrinsics)."""
    if isinstance(rv, Use):
        return operand_ty(body, rv.operand)
    if isinstance(rv, BinaryOp):
        return BOOL if rv.op in COMPARISONS else operand_ty(body, rv.lhs)
    if isinstance(rv, UnaryOp):
        return operand_ty(body, rv.operand)
    if isinstance(rv, Cast):
        return rv.ty
    if isinstance(rv, Ref):
        return RefTy(place_ty(body, rv.place), rv.mutable)
    if isinstance(rv, Len):
        return USIZE
    if isinstance(rv, Discriminant):
        ty = place_ty(body, rv.place)
        if not isinstance(ty, EnumTy):
            raise MirTypeError(f"discriminant of a value of type `{ty}`")
        return ty.tag
    if isinstance(rv, Aggregate):
        return rv.ty
    if isinstance(rv, Repeat):
        return ArrayTy(operand_ty(body, rv.operand), rv.count)
    if isinstance(rv, Intrinsic):
        return intrinsic_ty(rv.name, [operand_ty(body, a) for a in rv.args])
    assert isinstance(rv, StaticRef), rv
    return None


def atomic_elem_ty(body: Body, stmt: AtomicOp) -> Ty:
    """The scalar type an atomic operates on: what its pointer points to."""
    ptr = operand_ty(body, stmt.ptr)
    if not isinstance(ptr, (RefTy, PtrTy)) or isinstance(ptr.inner, SliceTy):
        raise MirTypeError(f"atomic through a value of type `{ptr}`, not a thin pointer")
    return ptr.inner
