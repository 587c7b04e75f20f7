"""PTX modules: load through the driver's JIT and look up kernels.

    module = load_ptx(ptx_text)          # PtxLoadError with the JIT's log on bad PTX
    fn = module.get_function("vecadd")   # CudaError naming the kernel when it is missing

The JIT's error log comes back through CU_JIT_ERROR_LOG_BUFFER (a bytearray the driver fills)
and CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES (its size).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import context
from .cuda import check, error_name_and_text
from .errors import PtxLoadError

LOG_BYTES = 64 * 1024


@dataclass
class Function:
    """A kernel in a loaded module."""

    handle: Any  # CUfunction
    name: str
    module: "Module"

    def set_max_dynamic_shared(self, nbytes: int) -> None:
        """Opt in to more than 48 KiB of dynamic shared memory."""
        drv = self.module.ctx.drv
        attr = drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        check(drv.cuFuncSetAttribute(self.handle, attr, int(nbytes)),
              f"allowing {nbytes} bytes of dynamic shared memory for kernel `{self.name}`")


@dataclass
class Module:
    handle: Any  # CUmodule
    ctx: context.GpuContext
    info_log: str = ""
    _functions: dict[str, Function] = field(default_factory=dict)

    @property
    def generation(self) -> int:
        return self.ctx.generation

    @property
    def alive(self) -> bool:
        return not self.ctx.closed

    def get_function(self, name: str) -> Function:
        fn = self._functions.get(name)
        if fn is None:
            handle = check(self.ctx.drv.cuModuleGetFunction(self.handle, name.encode()),
                           f"looking up kernel `{name}` in the PTX module")
            fn = self._functions[name] = Function(handle, name, self)
        return fn

    def write_global(self, symbol: str, data: bytes) -> None:
        """Copy `data` into the module's global (or `.const`) variable `symbol`."""
        drv = self.ctx.drv
        ptr, size = check(drv.cuModuleGetGlobal(self.handle, symbol.encode()),
                          f"looking up `{symbol}` in the PTX module")
        if int(size) != len(data):
            raise ValueError(f"`{symbol}` has {int(size)} bytes, the value {len(data)}")
        import numpy as np
        buf = np.frombuffer(bytes(data), dtype=np.uint8).copy()
        check(drv.cuMemcpyHtoDAsync(ptr, buf.ctypes.data, buf.nbytes, self.ctx.stream),
              f"writing `{symbol}`")
        self.ctx.synchronize(f"writing `{symbol}`")

    def unload(self) -> None:
        if self.alive and self.handle is not None:
            check(self.ctx.drv.cuModuleUnload(self.handle), "unloading a PTX module")
        self.handle = None
        self._functions.clear()


def load_ptx(ptx: str | bytes, ctx: context.GpuContext | None = None) -> Module:
    """JIT-compile PTX text for the current device and load it."""
    ctx = ctx or context.current()
    drv = ctx.drv
    image = ptx.encode() if isinstance(ptx, str) else bytes(ptx)
    if not image.endswith(b"\0"):
        image += b"\0"
    error_log = bytearray(LOG_BYTES)
    info_log = bytearray(LOG_BYTES)
    opt = drv.CUjit_option
    options = [opt.CU_JIT_ERROR_LOG_BUFFER, opt.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
               opt.CU_JIT_INFO_LOG_BUFFER, opt.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES]
    values = [error_log, LOG_BYTES, info_log, LOG_BYTES]
    result = drv.cuModuleLoadDataEx(image, len(options), options, values)
    err = result[0]
    if int(err) != 0:
        name, text = error_name_and_text(err)
        raise PtxLoadError(int(err), name, text, _log_text(error_log))
    return Module(result[1], ctx, _log_text(info_log))


def _log_text(buf: bytearray) -> str:
    return bytes(buf).split(b"\0", 1)[0].decode("utf-8", errors="replace").strip()
