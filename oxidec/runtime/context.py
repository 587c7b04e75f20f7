"""Device 0's primary context, opened lazily on first use and released at exit.

    ctx = current()               # NoGpuError when there is no usable GPU
    device_capability()           # "sm_90"
    gpu_unavailable_reason()      # None when a GPU is usable, else why not (cached)

Each opened context gets a new `generation`; modules and buffers remember theirs, so that after
`reset_after_fault()` (a kernel faulted: the context is unusable until reset) stale handles are
reloaded or skipped instead of being used.
"""
from __future__ import annotations

import atexit
import threading
from dataclasses import dataclass, field
from typing import Any

from . import cuda
from .cuda import check
from .errors import CudaError, NoGpuError


@dataclass
class GpuContext:
    drv: Any
    device: Any  # CUdevice
    ctx: Any  # CUcontext (primary)
    stream: Any  # CUstream every launch and copy of the runtime goes through
    name: str
    capability: tuple[int, int]
    generation: int
    closed: bool = field(default=False)

    @property
    def arch(self) -> str:
        return f"sm_{self.capability[0]}{self.capability[1]}"

    def make_current(self) -> None:
        check(self.drv.cuCtxSetCurrent(self.ctx), "making the CUDA context current")

    def synchronize(self, what: str = "synchronizing the stream") -> None:
        check(self.drv.cuStreamSynchronize(self.stream), what)


_lock = threading.RLock()
_current: GpuContext | None = None
_failure: NoGpuError | None = None
_generation = 0
_atexit_registered = False


def open_context(drv: Any, device_index: int = 0, generation: int = 0) -> GpuContext:
    """cuInit, pick the device, retain its primary context, create a stream.

    Failures that mean "there is no GPU here" (cuInit failing, no device, no driver library)
    become NoGpuError; anything after that is a CudaError.
    """
    try:
        result = drv.cuInit(0)
    except Exception as exc:  # cuda-python raises when libcuda itself cannot be loaded
        raise NoGpuError(f"the NVIDIA driver library (libcuda) could not be loaded "
                         f"({type(exc).__name__}: {exc})") from None
    try:
        check(result, "initialising the CUDA driver")
        count = check(drv.cuDeviceGetCount(), "counting CUDA devices")
        if count <= device_index:
            raise NoGpuError(f"the CUDA driver found {count} device(s)")
        device = check(drv.cuDeviceGet(device_index), f"getting CUDA device {device_index}")
    except CudaError as exc:
        raise NoGpuError(str(exc)) from None
    raw = check(drv.cuDeviceGetName(256, device), "reading the device name")
    name = bytes(raw).split(b"\0", 1)[0].decode(errors="replace") if raw else "CUDA device"
    attr = drv.CUdevice_attribute
    major = check(drv.cuDeviceGetAttribute(
        attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device), "reading the capability")
    minor = check(drv.cuDeviceGetAttribute(
        attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device), "reading the capability")
    ctx = check(drv.cuDevicePrimaryCtxRetain(device), "retaining the primary context")
    check(drv.cuCtxSetCurrent(ctx), "making the CUDA context current")
    stream = check(drv.cuStreamCreate(drv.CUstream_flags.CU_STREAM_DEFAULT.value),
                   "creating a CUDA stream")
    return GpuContext(drv, device, ctx, stream, name, (int(major), int(minor)), generation)


def current() -> GpuContext:
    """The runtime's context, opened on first use and made current on this thread."""
    global _current, _failure, _generation, _atexit_registered
    with _lock:
        if _current is None:
            if _failure is not None:
                raise _failure
            try:
                drv = cuda.driver()
                _generation += 1
                _current = open_context(drv, 0, _generation)
            except NoGpuError as exc:
                _failure = exc
                raise
            if not _atexit_registered:
                atexit.register(shutdown)
                _atexit_registered = True
            return _current
    _current.make_current()
    return _current


def current_generation() -> int:
    """Generation of the open context, 0 when none is open."""
    ctx = _current
    return ctx.generation if ctx is not None and not ctx.closed else 0


def gpu_unavailable_reason() -> str | None:
    """None when a GPU is usable; else the NoGpuError text (cuInit is tried only once)."""
    try:
        current()
    except NoGpuError as exc:
        return str(exc)
    return None


def gpu_available() -> bool:
    return gpu_unavailable_reason() is None


def device_capability() -> str:
    """The GPU's compute capability as a PTX target name: "sm_90"."""
    return current().arch


def device_name() -> str:
    return current().name


def reset_after_fault() -> None:
    """A kernel faulted: the primary context is unusable. Reset it so the next use starts a
    fresh one (modules reload, old buffers are gone)."""
    global _current
    with _lock:
        ctx, _current = _current, None
        if ctx is None:
            return
        ctx.closed = True
        drv = ctx.drv
        for call in (lambda: drv.cuStreamDestroy(ctx.stream),
                     lambda: drv.cuDevicePrimaryCtxRelease(ctx.device),
                     lambda: drv.cuDevicePrimaryCtxReset(ctx.device)):
            try:
                call()
            except Exception:
                pass


def shutdown() -> None:
    """Release the stream and the primary context (registered with atexit)."""
    global _current
    with _lock:
        ctx, _current = _current, None
        if ctx is None or ctx.closed:
            return
        ctx.closed = True
        try:
            ctx.drv.cuStreamSynchronize(ctx.stream)
            ctx.drv.cuStreamDestroy(ctx.stream)
            ctx.drv.cuDevicePrimaryCtxRelease(ctx.device)
        except Exception:  # at interpreter exit the driver may already be going away
            pass


def forget() -> None:
    """Drop the cached context and cached failure (tests use it with a fake driver)."""
    global _current, _failure
    with _lock:
        _current = None
        _failure = None
