"""Host arguments checked against a kernel's signature, before anything is launched.

`prepare_args(sig, args)` takes one Python value per Rust parameter (NumPy arrays for slices,
DisjointSlices and pointers; Python or NumPy numbers for scalars) and returns `PreparedArg`s
that both the GPU path and the simulator use: scalars converted to their NumPy type, arrays
made C-contiguous (a copy when needed, written back afterwards for writable parameters).

It rejects, with a `LaunchError` that names the parameter:
- the wrong number of arguments (listing the signature),
- an array of the wrong dtype, or not an array at all, or a read-only array for a writable
  parameter,
- a scalar of the wrong kind or out of its type's range,
- an aliasing violation: a writable argument (DisjointSlice, &mut [T], *mut T) sharing memory
  with any other array argument, since the kernel assumes `&[T]` data does not change under it
  (and may read it through the non-coherent cache).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import types as T
from ..signature import KernelParam, KernelSignature
from .dtypes import int_range, numpy_dtype
from .errors import LaunchError
from .values import encode, is_aggregate


@dataclass
class PreparedArg:
    param: KernelParam
    value: Any  # np scalar for scalars; a C-contiguous ndarray for arrays
    original: np.ndarray | None = None  # the caller's array (arrays only)
    copied: bool = False  # `value` is a contiguous copy of `original`

    @property
    def is_array(self) -> bool:
        return self.param.kind != "scalar"

    @property
    def flat(self) -> np.ndarray:
        """The array as the kernel sees it: 1-D, a view of `value`."""
        return self.value.reshape(-1)

    @property
    def length(self) -> int:
        return int(self.value.size)

    @property
    def row_width(self) -> int:
        """A `DisjointSlice<T, Runtime2DIndex>`'s row width: the 2-D array's columns."""
        return int(self.value.shape[1])

    def write_back(self) -> None:
        """After the kernel ran on `value`: update the caller's array if we worked on a copy."""
        if self.copied and self.param.writable:
            self.original[...] = self.value.reshape(self.original.shape)


def describe_signature(sig: KernelSignature) -> str:
    return ", ".join(f"{p.name}: {p.ty}" for p in sig.params)


def prepare_args(sig: KernelSignature, args: Sequence[Any]) -> list[PreparedArg]:
    if len(args) != len(sig.params):
        n = len(sig.params)
        raise LaunchError(f"kernel `{sig.name}` takes {n} argument{'s' if n != 1 else ''} "
                          f"({describe_signature(sig)}), got {len(args)}")
    prepared = [_prepare_one(p, a) for p, a in zip(sig.params, args)]
    check_aliasing(prepared)
    return prepared


def _prepare_one(param: KernelParam, value: Any) -> PreparedArg:
    if param.elem == T.TMA_DESCRIPTOR:  # `*const TmaDescriptor` or by value
        return _prepare_tensor_map(param, value)
    if param.kind == "scalar" and is_aggregate(param.ty):  # an enum or struct: its bytes
        return PreparedArg(param, encode(param.ty, value, f"argument `{param.name}`"))
    if param.kind == "scalar":
        return PreparedArg(param, convert_scalar(param, value))
    return _prepare_array(param, value)


def _prepare_array(param: KernelParam, value: Any) -> PreparedArg:
    want = numpy_dtype(param.elem)
    if want is None:
        raise LaunchError(f"parameter `{param.name}: {param.ty}` has an element type the host "
                          "cannot pass (only arrays of scalars)")
    if not isinstance(value, np.ndarray):
        raise LaunchError(f"argument `{param.name}`: expected a numpy array of {param.elem} "
                          f"for `{param.name}: {param.ty}`, got {_kind_of(value)}")
    if value.dtype != want:
        raise LaunchError(f"argument `{param.name}`: expected an array of {param.elem}, "
                          f"got {value.dtype}")
    if value.ndim == 0:
        raise LaunchError(f"argument `{param.name}`: expected an array of {param.elem}, "
                          "got a 0-d array")
    if param.kind == "disjoint2d" and (value.ndim != 2 or value.shape[1] >= 1 << 32):
        raise LaunchError(f"argument `{param.name}`: expected a 2-D array (rows of the row "
                          f"width) for `{param.name}: {param.ty}`, got a {value.ndim}-d array")
    if param.writable and not value.flags.writeable:
        raise LaunchError(f"argument `{param.name}`: the array is read-only, but "
                          f"`{param.name}: {param.ty}` is written by the kernel")
    if value.flags.c_contiguous:
        return PreparedArg(param, value, value, False)
    return PreparedArg(param, np.ascontiguousarray(value), value, True)


def _prepare_tensor_map(param: KernelParam, value: Any) -> PreparedArg:
    """`*const TmaDescriptor` or `TmaDescriptor`: a TensorMap, encoded at launch once its
    tensor is on the device (runtime/tma.py)."""
    from .tma import TensorMap
    if not isinstance(value, TensorMap):
        raise LaunchError(f"argument `{param.name}`: expected an oxidec.runtime.tma.TensorMap "
                          f"for `{param.name}: {param.ty}`, got {_kind_of(value)}")
    return PreparedArg(param, value, value.array, False)


def convert_scalar(param: KernelParam, value: Any) -> np.generic:
    """A Python/NumPy number -> the NumPy scalar of the parameter's type, range-checked."""
    ty = param.ty
    dtype = numpy_dtype(ty)
    if dtype is None:
        raise LaunchError(f"parameter `{param.name}: {ty}` has a type the host cannot pass "
                          "(only scalars, slices and pointers)")
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    is_bool = isinstance(value, (bool, np.bool_))
    is_int = isinstance(value, (int, np.integer)) and not is_bool
    is_float = isinstance(value, (float, np.floating))
    if isinstance(ty, T.BoolTy):
        if not is_bool:
            raise LaunchError(f"argument `{param.name}`: expected a bool, got {_kind_of(value)}")
        return np.bool_(bool(value))
    if isinstance(ty, T.IntTy):
        if not is_int:
            raise LaunchError(f"argument `{param.name}`: expected an integer ({ty}), "
                              f"got {_kind_of(value)}")
        lo, hi = int_range(ty)
        if not lo <= int(value) <= hi:
            raise LaunchError(f"argument `{param.name}`: {int(value)} is out of range for {ty} "
                              f"({lo}..={hi})")
        return dtype.type(int(value))
    # float
    if not (is_int or is_float):
        raise LaunchError(f"argument `{param.name}`: expected a number ({ty}), "
                          f"got {_kind_of(value)}")
    as_float = float(value)
    with np.errstate(over="ignore"):
        converted = dtype.type(as_float)
    if math.isfinite(as_float) and not np.isfinite(converted):
        raise LaunchError(f"argument `{param.name}`: {value} is out of range for {ty}")
    return converted


def check_aliasing(prepared: Sequence[PreparedArg]) -> None:
    arrays = [a for a in prepared if a.is_array]
    for i, x in enumerate(arrays):
        for y in arrays[i + 1:]:
            if not (x.param.writable or y.param.writable):
                continue
            if x.param.kind == "ptr" and y.param.kind == "ptr":
                continue  # raw pointers: aliasing is the unsafe code's business
            if not _overlap(x.original, y.original):
                continue
            both = (f"`{x.param.name}` ({x.param.ty}) and `{y.param.name}` ({y.param.ty})")
            if x.original is y.original:
                what = f"the same array is passed as {both}"
            else:
                what = f"arguments {both} overlap in memory"
            raise LaunchError(f"aliasing violation: {what}; a writable argument must not share "
                              "memory with any other argument")


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    if a is b:
        return a.size > 0
    try:
        return bool(np.shares_memory(a, b, max_work=100_000))
    except np.exceptions.TooHardError:  # too costly to decide exactly: assume the worst
        return True


def _kind_of(value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        return f"bool ({value})"
    if isinstance(value, (int, float, np.integer, np.floating)):
        name = type(value).__name__ if not isinstance(value, np.generic) else str(value.dtype)
        return f"{name} ({value})"
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return type(value).__name__
