"""Parameter passing: kernel `.param`s (the ABI the runtime and simulator launch with),
and `.func` parameters, return values and call sequences for `#[device]` functions.

Kernel parameters, one MIR argument after another:
- a scalar: one `.param` of its memory type (`bool` is `.u8`, converted with setp.ne);
  a u128/i128: `.param .align 16 .b8 NAME[16]`, as LLVM's NVPTX backend passes an i128;
- `&[T]`, `DisjointSlice<T>`: two `.param .u64` (data pointer, element count);
- `&T`, `*const T`, `*mut T`: one `.param .u64`;
- a struct, tuple, array or Option by value: one `.param .align A .b8 NAME[SIZE]` in C
  layout, as nvcc passes a struct.
- a `TmaDescriptor` by value: `.param .align 64 .b8 NAME[128]` (a CUtensorMap, as nvcc
  passes a `const __grid_constant__ CUtensorMap`), left there (`param_memory`).
Pointers are converted with `cvta.to.global.u64` once, on entry.

Device functions take one `.param` per leaf (bools as `.b32` 0/1) and return a single
leaf as `.param .T func_retval0`, or several leaves packed in an aligned byte array.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mir import syntax as mir
from ..types import TMA_DESCRIPTOR, BoolTy, FloatTy, IntTy, ThreadIndexTy, Ty
from .regalloc import MemoryLocal
from .spaces import GENERIC
from .types import (is_fat_pointer, is_thin_pointer, leaf_types, mem_align, mem_size, memory,
                    memory_leaves, reg_class)


TMA_ALIGN = 64  # a CUtensorMap's alignment


@dataclass(frozen=True)
class Param:
    name: str
    decl: str  # the `.param` declaration
    leaves: tuple[tuple[int, Ty], ...]  # (byte offset in the param, leaf type)


def kernel_params(body: mir.Body) -> list[tuple[int, list[Param]]]:
    """The `.param`s of a kernel, grouped by the argument local they carry."""
    out, n = [], 0
    for local in body.args():
        ty = body.locals[local].ty
        params = []
        leaves = memory_leaves(ty)
        if is_fat_pointer(ty) or _scalar_param(ty):
            for _, leaf in leaves:
                name = f"{body.name}_param_{n}"
                params.append(Param(name, f".param .{memory(leaf)} {name}", ((0, leaf),)))
                n += 1
        elif ty == TMA_DESCRIPTOR:  # left in .param space (`param_memory`)
            name = f"{body.name}_param_{n}"
            decl = f".param .align {TMA_ALIGN} .b8 {name}[{mem_size(ty)}]"
            params.append(Param(name, decl, ()))
            n += 1
        elif leaves:
            name = f"{body.name}_param_{n}"
            decl = f".param .align {mem_align(ty)} .b8 {name}[{mem_size(ty)}]"
            params.append(Param(name, decl, leaves))
            n += 1
        out.append((local, params))
    return out


def param_memory(body: mir.Body) -> dict[int, MemoryLocal]:
    """A kernel's by-value `TmaDescriptor` parameters, by local: never copied out of their
    `.param` (64-byte aligned, as the TMA unit needs); the kernel reads them, and hands them
    to TMA instructions, through their generic address (`cvta.param`)."""
    if body.kind != "kernel":
        return {}
    return {local: MemoryLocal(params[0].name, TMA_DESCRIPTOR, GENERIC)
            for local, params in kernel_params(body)
            if body.locals[local].ty == TMA_DESCRIPTOR}


def _scalar_param(ty: Ty) -> bool:
    if isinstance(ty, IntTy) and ty.bits == 128:  # as LLVM passes an i128: 16 aligned bytes
        return False
    return isinstance(ty, (IntTy, FloatTy, BoolTy, ThreadIndexTy)) or is_thin_pointer(ty)


# ---------------------------------------------------------------------------
# Device functions

DEVICE_PARAM_TYPE = {"pred": "b32", "b32": "b32", "b64": "b64", "f32": "f32", "f64": "f64"}


def device_param_type(leaf: Ty) -> str:
    return DEVICE_PARAM_TYPE[reg_class(leaf).name]


def leaf_size(leaf: Ty) -> int:
    return 8 if device_param_type(leaf) in ("b64", "f64") else 4


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[tuple[str, Ty], ...]  # (param name, leaf type), one per leaf
    returns: tuple[tuple[int, Ty], ...]  # (offset in the return param, leaf type)

    def return_decl(self, name: str = "func_retval0") -> str | None:
        """`.param .f32 func_retval0` or an aligned byte array for several leaves."""
        if not self.returns:
            return None
        if len(self.returns) == 1:
            return f".param .{device_param_type(self.returns[0][1])} {name}"
        align = max(leaf_size(t) for _, t in self.returns)
        end = self.returns[-1][0] + leaf_size(self.returns[-1][1])
        size = (end + align - 1) // align * align
        return f".param .align {align} .b8 {name}[{size}]"

    def param_decls(self) -> list[str]:
        return [f".param .{device_param_type(t)} {name}" for name, t in self.params]

    def prototype(self) -> str:
        """`.func (.param .f32 func_retval0) name(.param .f32 name_param_0, ...)`."""
        ret = self.return_decl()
        head = f".func ({ret}) {self.name}" if ret else f".func {self.name}"
        params = ",\n\t".join(self.param_decls())
        return f"{head}(\n\t{params}\n)" if params else f"{head}()"


def signature(body: mir.Body) -> Signature:
    params, n = [], 0
    for local in body.args():
        for leaf in leaf_types(body.locals[local].ty):
            params.append((f"{body.name}_param_{n}", leaf))
            n += 1
    returns, off = [], 0
    for leaf in leaf_types(body.return_ty):
        size = leaf_size(leaf)
        off = (off + size - 1) // size * size
        returns.append((off, leaf))
        off += size
    return Signature(body.name, tuple(params), tuple(returns))


def store_param(em, dst: str, v, leaf: Ty) -> None:
    """st.param of one leaf (bools as 0/1 words, pointers generic)."""
    t = device_param_type(leaf)
    if isinstance(leaf, BoolTy):
        word = v.text
        if not v.imm:
            word = em.tmp_u32()
            em.emit(f"selp.u32 \t{word}, 1, 0, {v.text};")
        em.emit(f"st.param.b32 \t[{dst}], {word};")
        return
    v = em.coerce(v, "generic")
    em.emit(f"st.param.{t} \t[{dst}], {v.text};")


def load_param(em, dst: str, src: str, leaf: Ty) -> None:
    if isinstance(leaf, BoolTy):
        word = em.tmp_u32()
        em.emit(f"ld.param.b32 \t{word}, [{src}];")
        em.emit(f"setp.ne.b32 \t{dst}, {word}, 0;")
        return
    em.emit(f"ld.param.{device_param_type(leaf)} \t{dst}, [{src}];")


def offset_address(name: str, offset: int) -> str:
    return f"{name}+{offset}" if offset else name


def emit_call(em, callee: Signature, args: list, results: list[str]) -> None:
    """The call sequence, in its own `{ }` scope as nvcc writes it."""
    em.emit("{ // callseq " + callee.name)
    names = []
    for i, ((_, leaf), v) in enumerate(zip(callee.params, args)):
        name = f"param{i}"
        em.emit(f".param .{device_param_type(leaf)} {name};")
        store_param(em, name, v, leaf)
        names.append(name)
    ret = callee.return_decl("retval0")
    if ret:
        em.emit(ret + ";")
    head = "call (retval0), " if ret else "call "
    em.emit(f"{head}{callee.name}, ({', '.join(names)});")
    for (off, leaf), dst in zip(callee.returns, results):
        load_param(em, dst, offset_address("retval0", off), leaf)
    em.emit("} // callseq " + callee.name)
