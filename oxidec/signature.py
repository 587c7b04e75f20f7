"""Kernel signatures as the host sees them: the launch ABI shared by the PTX emitter,
the GPU runtime, the simulator and the Python API.

PTX parameter order follows the Rust parameters; each expands as:
- scalar `T`                 -> one `.param` of T (bool as a byte)
- `&[T]`, `DisjointSlice<T>` -> two `.param .u64`: element pointer, element count
- `DisjointSlice<T, Runtime2DIndex>` -> one 24-byte `.param` {pointer, count, u32 row width}
- `*const T`, `*mut T`, `&T` -> one `.param .u64`
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as T
from .mir.syntax import Body, LaunchInfo, Program


@dataclass(frozen=True)
class KernelParam:
    name: str
    kind: str  # "scalar" | "slice" (&[T], read-only) | "disjoint" (DisjointSlice<T>) | "ptr"
    #            | "disjoint2d" (DisjointSlice<T, Runtime2DIndex>: a 2-D array)
    #            ("scalar" also for an enum or struct by value: runtime/values.py encodes it)
    ty: T.Ty  # the parameter's full type
    elem: T.Ty  # the scalar type itself for "scalar"; the element type otherwise
    writable: bool  # the kernel may write through it (copied back by the host API)


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: tuple[KernelParam, ...]
    launch: LaunchInfo | None = None  # launch bounds and contract, as the MIR body has them


def classify_param(name: str, ty: T.Ty) -> KernelParam:
    if isinstance(ty, T.DisjointSliceTy):
        return KernelParam(name, "disjoint", ty, ty.elem, True)
    if isinstance(ty, T.Runtime2DSliceTy):  # the host passes a 2-D array: its rows' width
        return KernelParam(name, "disjoint2d", ty, ty.elem, True)
    if isinstance(ty, T.RefTy) and isinstance(ty.inner, T.SliceTy):
        elem = ty.inner.elem
        if isinstance(elem, T.AtomicCellTy):  # `&[DeviceAtomicU32]`: written atomically
            return KernelParam(name, "slice", ty, elem.inner, True)
        return KernelParam(name, "slice", ty, elem, ty.mutable)
    if isinstance(ty, (T.PtrTy, T.RefTy)):
        return KernelParam(name, "ptr", ty, ty.inner, ty.mutable)
    return KernelParam(name, "scalar", ty, ty, False)


def body_signature(body: Body) -> KernelSignature:
    params = []
    for local in body.args():
        decl = body.locals[local]
        params.append(classify_param(decl.name or f"arg{local}", decl.ty))
    return KernelSignature(body.name, tuple(params), body.launch)


def kernel_signatures(program: Program) -> dict[str, KernelSignature]:
    return {b.name: body_signature(b) for b in program.bodies if b.kind == "kernel"}
