"""Checked calls into `cuda.bindings.driver`.

Every driver call returns a tuple whose first element is a `CUresult`; `check` turns a failure
into a `CudaError` with the driver's error name and string and a note on what we were doing:

    fn = check(drv.cuModuleGetFunction(mod, b"vecadd"), "looking up kernel `vecadd`")

The driver module is imported lazily, so that `import oxidec.runtime` works without cuda-python;
tests replace it with a fake through `set_driver`. A device fault (a sticky error such as
CUDA_ERROR_ILLEGAL_ADDRESS) is also reported to the context, which refuses later GPU work.
"""
from __future__ import annotations

from typing import Any

from .errors import CudaError, NoGpuError

_driver: Any = None
_fault_hook: Any = None  # context.mark_faulted: told about sticky (device fault) errors


def driver() -> Any:
    """The `cuda.bindings.driver` module; NoGpuError when cuda-python is not installed."""
    global _driver
    if _driver is None:
        try:
            from cuda.bindings import driver as drv
        except ImportError as exc:
            raise NoGpuError(f"cuda-python is not installed ({exc}); "
                             "run `pip install cuda-python`") from None
        _driver = drv
    return _driver


def set_driver(drv: Any) -> Any:
    """Replace the driver module (tests pass a fake); returns the previous one."""
    global _driver
    previous, _driver = _driver, drv
    return previous


def set_fault_hook(hook: Any) -> None:
    global _fault_hook
    _fault_hook = hook


def error_name_and_text(err: Any) -> tuple[str, str]:
    """("CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected") for a CUresult."""
    drv = _driver
    name = getattr(err, "name", None) or f"CUresult {int(err)}"
    text = "unknown error"
    if drv is not None:
        try:
            res, raw = drv.cuGetErrorName(err)
            if int(res) == 0 and raw:
                name = _decode(raw)
            res, raw = drv.cuGetErrorString(err)
            if int(res) == 0 and raw:
                text = _decode(raw)
        except Exception:  # the driver itself may be unusable; keep the enum's name
            pass
    return name, text


def cuda_error(err: Any, what: str = "") -> CudaError:
    name, text = error_name_and_text(err)
    return CudaError(int(err), name, text, what)


def check(result: Any, what: str = "") -> Any:
    """Raise CudaError unless `result` (a driver call's return) is CUDA_SUCCESS.

    Returns the call's outputs: None for none, the value for one, a tuple for several.
    """
    if isinstance(result, tuple):
        err, rest = result[0], result[1:]
    else:
        err, rest = result, ()
    if int(err) != 0:
        exc = cuda_error(err, what)
        if exc.sticky and _fault_hook is not None:
            _fault_hook(exc)
        raise exc
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


def _decode(raw: Any) -> str:
    if isinstance(raw, (bytes, bytearray)):
        return bytes(raw).split(b"\0", 1)[0].decode("utf-8", errors="replace")
    return str(raw)
