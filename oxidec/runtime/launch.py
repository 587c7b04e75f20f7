"""Kernel launches: launch geometry, the PTX parameter ABI, and `cuLaunchKernel`.

The ABI (see `oxidec.signature`): each Rust parameter expands, in order, to
- scalar `T`                 -> one `.param` of T (bool as one byte)
- `&[T]`, `DisjointSlice<T>` -> two `.param .u64`: device pointer, element count
- `DisjointSlice<T, Runtime2DIndex>` -> 24 bytes {device pointer, count, u32 row width}
- `*const T`, `*mut T`, `&T` -> one `.param .u64`: device pointer
`cuLaunchKernel` takes the address of an array of pointers, one per PTX parameter, each
pointing at that parameter's bytes; `KernelParams` owns both (ctypes) for the launch.
"""
from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass
from typing import Any, Sequence

from .. import types as T
from ..half_float import half_bits
from ..mir import layout
from ..signature import KernelSignature
from .cuda import check
from .dtypes import ctype_of
from .errors import LaunchError
from . import values as host_values

Dim3 = tuple[int, int, int]

MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = ((1 << 31) - 1, 65535, 65535)
DEFAULT_SHARED_LIMIT = 48 * 1024  # more dynamic shared memory needs an opt-in per function


def dim3(value: Any, what: str = "grid") -> Dim3:
    """An int or a tuple of 1-3 ints -> (x, y, z), each >= 1."""
    if isinstance(value, (list, tuple)):
        items = list(value)
    else:
        items = [value]
    if not 1 <= len(items) <= 3 or not all(_is_int(v) for v in items):
        raise LaunchError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    dims = [int(v) for v in items] + [1] * (3 - len(items))
    if any(d < 1 for d in dims):
        raise LaunchError(f"{what} dimensions must be at least 1, got {tuple(dims)}")
    return dims[0], dims[1], dims[2]


def _is_int(v: Any) -> bool:
    import numpy as np
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_launch_config(grid: Dim3, block: Dim3, shared_bytes: int = 0,
                        sig: KernelSignature | None = None) -> None:
    """The CUDA limits every current GPU shares, checked before any launch (GPU or simulator)."""
    who = f" of kernel `{sig.name}`" if sig else ""
    threads = block[0] * block[1] * block[2]
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(f"block {block}{who} has {threads} threads; "
                          f"at most {MAX_THREADS_PER_BLOCK} per block")
    for axis, (d, limit) in enumerate(zip(block, MAX_BLOCK)):
        if d > limit:
            raise LaunchError(f"block {block}{who}: {'xyz'[axis]} extent {d} exceeds {limit}")
    for axis, (d, limit) in enumerate(zip(grid, MAX_GRID)):
        if d > limit:
            raise LaunchError(f"grid {grid}{who}: {'xyz'[axis]} extent {d} exceeds {limit}")
    if shared_bytes < 0:
        raise LaunchError(f"shared_bytes must be >= 0, got {shared_bytes}")
    bounds = sig.launch.bounds if sig and sig.launch else None
    if bounds:
        max_threads = bounds[0] if isinstance(bounds, (tuple, list)) else bounds
        if max_threads and threads > int(max_threads):
            raise LaunchError(f"block {block} has {threads} threads, but kernel `{sig.name}` "
                              f"has #[launch_bounds({max_threads}, ..)]")


MAX_CLUSTER_BLOCKS = 8  # the portable cluster size of sm_90


def cluster_launch_shape(sig: KernelSignature | None, grid: Dim3, cluster: Any) -> Dim3 | None:
    """The cluster shape to ask cuLaunchKernelEx for: `cluster` when the kernel has no
    `#[cluster_launch]` (None when neither gives one, or the kernel's own shape, which its
    PTX carries: `.reqnctapercluster`, honoured by a plain launch). Either way the grid must
    be a whole number of clusters."""
    fixed = sig.launch.cluster if sig and sig.launch and sig.launch.cluster else None
    who = f"kernel `{sig.name}`" if sig else "the kernel"
    shape = dim3(cluster, "cluster") if cluster is not None else None
    if shape is not None and fixed is not None and shape != tuple(fixed):
        raise LaunchError(f"{who} has #[cluster_launch{tuple(fixed)}]; it cannot be launched "
                          f"in clusters of {shape}")
    want = shape or (tuple(fixed) if fixed else None)
    if want is None:
        return None
    blocks = want[0] * want[1] * want[2]
    if blocks > MAX_CLUSTER_BLOCKS:
        raise LaunchError(f"cluster {want} of {who} has {blocks} blocks; at most "
                          f"{MAX_CLUSTER_BLOCKS}")
    for axis, (g, c) in enumerate(zip(grid, want)):
        if g % c:
            raise LaunchError(f"grid {grid} of {who} is not a whole number of clusters {want}: "
                              f"{'xyz'[axis]} extent {g} is not a multiple of {c}")
    return None if fixed is not None else want


@dataclass(frozen=True)
class PtxParam:
    name: str  # "a.ptr", "a.len", or the Rust name for one-part parameters
    ctype: type
    param: str  # the Rust parameter it comes from
    part: str  # "value" | "ptr" | "len"


def ptx_params(sig: KernelSignature) -> list[PtxParam]:
    """The PTX `.param` list of a kernel, in order."""
    out: list[PtxParam] = []
    for p in sig.params:
        if p.kind in ("slice", "disjoint"):
            out.append(PtxParam(f"{p.name}.ptr", ctypes.c_uint64, p.name, "ptr"))
            out.append(PtxParam(f"{p.name}.len", ctypes.c_uint64, p.name, "len"))
        elif p.kind == "disjoint2d":  # #[repr(C)] {ptr, len, row_width}: 24 bytes
            out.append(PtxParam(p.name, ctypes.c_uint8 * 24, p.name, "value"))
        elif p.kind == "ptr":
            out.append(PtxParam(p.name, ctypes.c_uint64, p.name, "ptr"))
        elif host_values.is_aggregate(p.ty):  # `.param .align A .b8 NAME[SIZE]`: its bytes
            size = layout.size_of(p.ty)
            out.append(PtxParam(p.name, ctypes.c_uint8 * max(size, 1), p.name, "value"))
        else:
            ct = ctype_of(p.ty)
            if ct is None:
                raise LaunchError(f"parameter `{p.name}: {p.ty}` has a type the host cannot pass "
                                  "(only scalars, slices and pointers)")
            out.append(PtxParam(p.name, ct, p.name, "value"))
    return out


class KernelParams:
    """The kernelParams array for one launch.

    `values` has one entry per Rust parameter: a number for a scalar, (device pointer, element
    count) for a slice or DisjointSlice, a device pointer for a raw pointer.
    """

    def __init__(self, sig: KernelSignature, values: Sequence[Any]):
        if len(values) != len(sig.params):
            raise LaunchError(f"kernel `{sig.name}` takes {len(sig.params)} parameters, "
                              f"got {len(values)} values to pack")
        self.layout = ptx_params(sig)
        self.storage: list[ctypes._SimpleCData] = []
        for p, v in zip(sig.params, values):
            if p.kind in ("slice", "disjoint"):
                ptr, length = v
                self.storage.append(ctypes.c_uint64(int(ptr)))
                self.storage.append(ctypes.c_uint64(int(length)))
            elif p.kind == "disjoint2d":
                ptr, length, width = v
                raw = struct.pack("<QQI4x", int(ptr), int(length), int(width))
                self.storage.append((ctypes.c_uint8 * 24).from_buffer_copy(raw))
            elif p.kind == "ptr":
                self.storage.append(ctypes.c_uint64(int(v)))
            elif host_values.is_aggregate(p.ty):
                raw = bytes(v) if isinstance(v, (bytes, bytearray)) else \
                    host_values.encode(p.ty, v, f"argument `{p.name}`")
                self.storage.append((ctypes.c_uint8 * max(len(raw), 1)).from_buffer_copy(
                    raw or b"\0"))
            else:
                self.storage.append(_scalar_cvalue(p.ty, v))
        n = len(self.storage)
        self.pointers = (ctypes.c_void_p * max(n, 1))(
            *[ctypes.addressof(s) for s in self.storage])

    def __len__(self) -> int:
        return len(self.storage)

    @property
    def address(self) -> int:
        """What cuLaunchKernel's kernelParams gets: the pointer array's address (0 if empty)."""
        return ctypes.addressof(self.pointers) if self.storage else 0

    def blobs(self) -> list[bytes]:
        """Each PTX parameter's bytes, as the driver will copy them."""
        return [bytes(s) for s in self.storage]


def _scalar_cvalue(ty: T.Ty, v: Any) -> ctypes._SimpleCData:
    ct = ctype_of(ty)
    if isinstance(ty, T.BoolTy):
        return ct(1 if v else 0)
    if T.is_half(ty):
        return ct(half_bits(float(v), ty))
    if isinstance(ty, T.FloatTy):
        return ct(float(v))
    return ct(int(v))


def pack_params(sig: KernelSignature, values: Sequence[Any]) -> KernelParams:
    return KernelParams(sig, values)


def launch(fn, grid: Dim3, block: Dim3, params: KernelParams, shared_bytes: int = 0, *,
           sync: bool = True, cluster: Dim3 | None = None, cooperative: bool = False) -> None:
    """Launch `fn` (a module.Function) on the context's stream; with `sync`, wait and check.
    `cooperative` (`#[cooperative_launch]`): every block resident at once and the grid
    barrier's workspace set up (`grid::sync()`); the driver refuses a grid larger than
    the GPU holds at once (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).

    A fault on the device (illegal address, trap, ...) raises a CudaError naming the kernel; it
    leaves the GPU unusable for the rest of the process (see context.mark_faulted).
    """
    ctx = fn.module.ctx
    drv = ctx.drv
    if shared_bytes > DEFAULT_SHARED_LIMIT:
        fn.set_max_dynamic_shared(shared_bytes)
    what = f"launching kernel `{fn.name}` with grid {tuple(grid)} and block {tuple(block)}"
    if cluster is not None or cooperative:
        how = (f" in clusters of {tuple(cluster)}" if cluster is not None else "") + \
            (" (cooperative launch)" if cooperative else "")
        check(drv.cuLaunchKernelEx(_cluster_config(drv, grid, block, shared_bytes, ctx.stream,
                                                   cluster, cooperative),
                                   fn.handle, params.address, 0), what + how)
    else:
        check(drv.cuLaunchKernel(fn.handle, grid[0], grid[1], grid[2], block[0], block[1],
                                 block[2], int(shared_bytes), ctx.stream, params.address, 0),
              what)
    if sync:
        ctx.synchronize(f"synchronizing after launching kernel `{fn.name}`")


def _cluster_config(drv, grid: Dim3, block: Dim3, shared_bytes: int, stream,
                    cluster: Dim3 | None, cooperative: bool = False):
    """A CUlaunchConfig with the cluster-dimension attribute (thread-block clusters, sm_90)
    and/or the cooperative attribute (`#[cooperative_launch]`)."""
    cfg = drv.CUlaunchConfig()
    cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = (int(d) for d in grid)
    cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = (int(d) for d in block)
    cfg.sharedMemBytes = int(shared_bytes)
    cfg.hStream = stream
    attrs = []
    if cluster is not None:
        attr = drv.CUlaunchAttribute()
        attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = \
            (int(d) for d in cluster)
        attrs.append(attr)
    if cooperative:
        attr = drv.CUlaunchAttribute()
        attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_COOPERATIVE
        attr.value.cooperative = 1
        attrs.append(attr)
    cfg.attrs = attrs
    cfg.numAttrs = len(attrs)
    return cfg
