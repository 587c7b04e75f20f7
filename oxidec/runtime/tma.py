"""Host side of TMA: `TensorMap`, the argument of a `*const TmaDescriptor` kernel parameter.

    from oxidec.runtime.tma import TensorMap
    src = TensorMap(a, box=(64, 64))          # a: a 2-D C-ordered array, boxes of 64 x 64
    mod.tile_copy[(4, 4), (128,)](src, TensorMap(b, box=(64, 64)), device="gpu")

At launch the runtime copies the array to the device, encodes the descriptor with
cuTensorMapEncodeTiled (the array's device address, its shape and strides, the box,
no interleave, the swizzle asked for, zero fill outside the tensor), copies the 128 bytes
to the device and passes their address, as cuda-oxide's hosts do; after the launch it
copies the array back (bulk tensor stores write it). Shapes and boxes are given in NumPy's
order (slowest axis first); the descriptor lists them innermost first, as the kernel's
coordinates do.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import LaunchError

# NumPy dtype -> CUtensorMapDataType member name
DATA_TYPES = {
    np.dtype(np.uint8): "UINT8", np.dtype(np.uint16): "UINT16",
    np.dtype(np.uint32): "UINT32", np.dtype(np.int32): "INT32",
    np.dtype(np.uint64): "UINT64", np.dtype(np.int64): "INT64",
    np.dtype(np.float16): "FLOAT16", np.dtype(np.float32): "FLOAT32",
    np.dtype(np.float64): "FLOAT64",
}
SWIZZLES = {None: "NONE", 32: "32B", 64: "64B", 128: "128B"}
MAX_RANK = 5
MAX_BOX = 256  # elements per box dimension
DESCRIPTOR_BYTES = 128


@dataclass
class TensorMap:
    """A tensor in global memory and the box one TMA copy moves (see the module doc).

    `array`: 1 to 5 dimensions, C-contiguous; `box`: the box's extent per axis (1..=256;
    the innermost in bytes a multiple of 16); `swizzle`: None, 32, 64 or 128 (bytes);
    `bf16`: the array holds bf16 bit patterns in uint16."""

    array: np.ndarray
    box: tuple[int, ...]
    swizzle: int | None = None
    bf16: bool = False

    def __post_init__(self) -> None:
        a = self.array
        if not isinstance(a, np.ndarray):
            raise LaunchError(f"TensorMap: expected a numpy array, got {type(a).__name__}")
        if not 1 <= a.ndim <= MAX_RANK:
            raise LaunchError(f"TensorMap: the array has {a.ndim} dimensions; TMA takes 1 to "
                              f"{MAX_RANK}")
        if not a.flags.c_contiguous:
            raise LaunchError("TensorMap: the array must be C-contiguous")
        if a.dtype not in DATA_TYPES:
            raise LaunchError(f"TensorMap: no TMA element type for {a.dtype} (one of "
                              f"{', '.join(str(d) for d in DATA_TYPES)})")
        if self.bf16 and a.dtype != np.uint16:
            raise LaunchError("TensorMap: bf16 data is held as uint16 bit patterns")
        self.box = tuple(int(b) for b in self.box)
        if len(self.box) != a.ndim:
            raise LaunchError(f"TensorMap: box {self.box} has {len(self.box)} extents for a "
                              f"{a.ndim}-D array")
        if not all(1 <= b <= MAX_BOX for b in self.box):
            raise LaunchError(f"TensorMap: box extents must be in 1..={MAX_BOX}, got {self.box}")
        if (self.box[-1] * a.itemsize) % 16:
            raise LaunchError(f"TensorMap: the innermost box extent ({self.box[-1]} elements of "
                              f"{a.itemsize} bytes) must be a multiple of 16 bytes")
        if self.swizzle not in SWIZZLES:
            raise LaunchError(f"TensorMap: swizzle must be None, 32, 64 or 128, got "
                              f"{self.swizzle!r}")
        if self.swizzle is not None and self.box[-1] * a.itemsize > self.swizzle:
            raise LaunchError(f"TensorMap: with a {self.swizzle}-byte swizzle the innermost box "
                              f"extent may span at most {self.swizzle} bytes, not "
                              f"{self.box[-1] * a.itemsize}")
        if any(d > 1 << 32 for d in a.shape):
            raise LaunchError(f"TensorMap: TMA takes at most 2^32 elements along an axis, the "
                              f"array has shape {a.shape}")
        for axis, stride in enumerate(a.strides[:-1]):
            if stride % 16:
                raise LaunchError(f"TensorMap: axis {axis} has a stride of {stride} bytes; TMA "
                                  "needs multiples of 16")
            if stride >= 1 << 40:
                raise LaunchError(f"TensorMap: axis {axis} has a stride of {stride} bytes; TMA "
                                  "needs less than 2^40")

    @property
    def box_bytes(self) -> int:
        """The bytes one copy of a whole box moves (what `arrive_expect_tx` expects)."""
        return int(np.prod(self.box)) * self.array.itemsize

    def encode(self, drv: Any, device_address: int) -> bytes:
        """The 128-byte CUtensorMap for the array at `device_address`."""
        from .cuda import check
        a = self.array
        kind = "BFLOAT16" if self.bf16 else DATA_TYPES[a.dtype]
        dims = [drv.cuuint64_t(int(d)) for d in reversed(a.shape)]
        strides = [drv.cuuint64_t(int(s)) for s in reversed(a.strides[:-1])]
        if not strides:
            # rank 1 has no stride entries (tensorRank - 1 = 0), but the binding turns an
            # empty list into a NULL pointer, which the driver refuses with
            # CUDA_ERROR_INVALID_VALUE: pass one entry it does not read (the tensor's byte
            # size, rounded up to 16 so that it would be a legal stride anyway)
            strides = [drv.cuuint64_t(-(-a.nbytes // 16) * 16)]
        box = [drv.cuuint32_t(int(b)) for b in reversed(self.box)]
        ones = [drv.cuuint32_t(1) for _ in self.box]
        tmap = check(drv.cuTensorMapEncodeTiled(
            getattr(drv.CUtensorMapDataType, f"CU_TENSOR_MAP_DATA_TYPE_{kind}"), a.ndim,
            int(device_address), dims, strides, box, ones,
            drv.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
            getattr(drv.CUtensorMapSwizzle, f"CU_TENSOR_MAP_SWIZZLE_{SWIZZLES[self.swizzle]}"),
            drv.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_NONE,
            drv.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            f"encoding a TMA descriptor for a {a.dtype} array of shape {a.shape}, box "
            f"{self.box}")
        raw = np.array([int(w) for w in tmap.opaque], np.uint64).tobytes()
        if len(raw) != DESCRIPTOR_BYTES:
            raise LaunchError(f"TensorMap: the driver gave {len(raw)} descriptor bytes")
        return raw
