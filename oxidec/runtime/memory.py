"""Device memory: `DeviceBuffer` allocates, copies to and from NumPy arrays, and frees.

    with DeviceBuffer.from_array(a) as buf:   # alloc + copy in
        ...launch with buf.ptr...
        buf.copy_to(a)                        # copy back into a (contiguous) array

Copies go through the context's stream (the one launches use) and are synchronised before
returning, so host arrays are safe to read or reuse afterwards. A zero-byte buffer has a null
pointer and allocates nothing (cuMemAlloc(0) is an error). Buffers of a context that has been
closed, or that a device fault made unusable, are not freed (it would only fail).
"""
from __future__ import annotations

import numpy as np

from . import context
from .cuda import check
from .errors import LaunchError


class DeviceBuffer:
    def __init__(self, nbytes: int, ctx: context.GpuContext | None = None):
        self.ctx = ctx or context.current()
        self.nbytes = int(nbytes)
        self._ptr = None
        if self.nbytes > 0:
            self._ptr = check(self.ctx.drv.cuMemAlloc(self.nbytes),
                              f"allocating {self.nbytes} bytes of device memory")

    @classmethod
    def from_array(cls, array: np.ndarray, ctx: context.GpuContext | None = None
                   ) -> "DeviceBuffer":
        buf = cls(array.nbytes, ctx)
        try:
            buf.copy_from(array)
        except BaseException:
            buf.free()
            raise
        return buf

    @property
    def ptr(self) -> int:
        """The device address as an integer (0 for an empty buffer)."""
        return int(self._ptr) if self._ptr is not None else 0

    def _contiguous(self, array: np.ndarray, direction: str) -> None:
        if not array.flags.c_contiguous:
            raise LaunchError(f"DeviceBuffer.{direction} needs a C-contiguous array")
        if array.nbytes != self.nbytes:
            raise LaunchError(f"DeviceBuffer.{direction}: array has {array.nbytes} bytes, "
                              f"buffer has {self.nbytes}")

    def copy_from(self, array: np.ndarray) -> None:
        """Host -> device, the whole buffer."""
        self._contiguous(array, "copy_from")
        if self.nbytes == 0:
            return
        drv = self.ctx.drv
        check(drv.cuMemcpyHtoDAsync(self._ptr, array.ctypes.data, self.nbytes, self.ctx.stream),
              f"copying {self.nbytes} bytes to the device")
        self.ctx.synchronize(f"copying {self.nbytes} bytes to the device")

    def copy_to(self, array: np.ndarray) -> np.ndarray:
        """Device -> host into `array` (C-contiguous, writable, same size); returns it."""
        self._contiguous(array, "copy_to")
        if not array.flags.writeable:
            raise LaunchError("DeviceBuffer.copy_to needs a writable array")
        if self.nbytes == 0:
            return array
        drv = self.ctx.drv
        check(drv.cuMemcpyDtoHAsync(array.ctypes.data, self._ptr, self.nbytes, self.ctx.stream),
              f"copying {self.nbytes} bytes from the device")
        self.ctx.synchronize(f"copying {self.nbytes} bytes from the device")
        return array

    def to_numpy(self, dtype, shape=None) -> np.ndarray:
        dtype = np.dtype(dtype)
        out = np.empty(self.nbytes // dtype.itemsize, dtype)
        self.copy_to(out)
        return out.reshape(shape) if shape is not None else out

    def fill_bytes(self, byte: int) -> None:
        """Set every byte (e.g. 0xFF to poison an output)."""
        if self.nbytes:
            drv = self.ctx.drv
            check(drv.cuMemsetD8Async(self._ptr, byte & 0xFF, self.nbytes, self.ctx.stream),
                  "filling device memory")
            self.ctx.synchronize("filling device memory")

    def free(self) -> None:
        ptr, self._ptr = self._ptr, None
        if ptr is not None and not self.ctx.closed and not self.ctx.faulted:
            check(self.ctx.drv.cuMemFree(ptr), f"freeing {self.nbytes} bytes of device memory")

    def __enter__(self) -> "DeviceBuffer":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.free()
        else:  # don't hide the error in flight behind a failing free (the context may be dead)
            try:
                self.free()
            except Exception:
                pass

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:  # never raise from a finaliser (e.g. at interpreter exit)
            pass

    def __repr__(self) -> str:
        return f"DeviceBuffer(ptr=0x{self.ptr:x}, nbytes={self.nbytes})"
