"""Device 0's primary context, opened lazily on first use and released at exit.

    ctx = current()               # NoGpuError when there is no usable GPU
    device_capability()           # "sm_90"
    gpu_unavailable_reason()      # None when a GPU is usable, else why not (cached)

A device fault (a kernel hit an illegal address or a `trap`) is sticky for the whole process in
CUDA; `check` reports it to `mark_faulted`, after which `current()` raises a CudaError that says
so, instead of letting every later call fail with a puzzling message.
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
    faulted: bool = field(default=False)  # a kernel faulted: the context is unusable

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
_fault: CudaError | None = None
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
        if type(exc).__name__ == "DynamicLibNotFoundError":  # cuda.pathfinder: not installed
            raise NoGpuError("the NVIDIA driver library (libcuda) was not found; "
                             "is the NVIDIA driver installed?") from None
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
        if _fault is not None:
            raise CudaError(_fault.code, _fault.name, _fault.text,
                            f"reusing the GPU after an earlier fault when {_fault.what}; CUDA "
                            "cannot recover from a device fault inside a process, start a new one")
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


def mark_faulted(err: CudaError) -> None:
    """A kernel faulted (illegal address, trap, ...). CUDA keeps such errors for the rest of the
    process: every later call fails the same way and no context reset clears them (measured on
    the H200 with driver 580: cuDevicePrimaryCtxReset succeeds, the next retain fails with the
    same error). So remember the fault and refuse later GPU work with a clear message."""
    global _fault
    with _lock:
        if _fault is None:
            _fault = err
        if _current is not None:
            _current.faulted = True


def fault() -> CudaError | None:
    """The device fault that made the GPU unusable in this process, if any."""
    return _fault


def shutdown() -> None:
    """Release the stream and the primary context (registered with atexit)."""
    global _current
    with _lock:
        ctx, _current = _current, None
        if ctx is None or ctx.closed:
            return
        ctx.closed = True
        if ctx.faulted:
            return
        try:
            ctx.drv.cuStreamSynchronize(ctx.stream)
            ctx.drv.cuStreamDestroy(ctx.stream)
            ctx.drv.cuDevicePrimaryCtxRelease(ctx.device)
        except Exception:  # at interpreter exit the driver may already be going away
            pass


def forget() -> None:
    """Drop the cached context, failure and fault (tests use it with a fake driver)."""
    global _current, _failure, _fault
    with _lock:
        _current = None
        _failure = None
        _fault = None


cuda.set_fault_hook(mark_faulted)
