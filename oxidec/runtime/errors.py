"""The exceptions of the host runtime, in one place so that callers can catch them by kind.

- `NoGpuError`: there is no usable CUDA GPU (no cuda-python, no driver, no device); the API's
  "auto" mode falls back to the simulator on it.
- `CudaError`: a CUDA driver call failed; carries the driver's error name and string.
- `PtxLoadError`: the driver's JIT rejected a PTX module; carries the JIT's log.
- `LaunchError`: the arguments or launch configuration do not fit the kernel's signature;
  raised before anything touches a device.
"""
from __future__ import annotations


class NoGpuError(RuntimeError):
    """No CUDA GPU is available: the message says why ("no CUDA GPU available: ...")."""

    def __init__(self, reason: str):
        super().__init__(f"no CUDA GPU available: {reason}")
        self.reason = reason


# Device faults: CUDA keeps them for the rest of the process (every later call fails the same
# way; resetting the primary context does not clear them).
STICKY_ERRORS = frozenset({
    "CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION", "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_INVALID_PC", "CUDA_ERROR_LAUNCH_FAILED",
    "CUDA_ERROR_ASSERT", "CUDA_ERROR_LAUNCH_TIMEOUT", "CUDA_ERROR_ILLEGAL_STATE",
})


class CudaError(RuntimeError):
    """A failed CUDA driver call.

    str(): "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered
    (while synchronizing after launching kernel `vecadd`)".
    """

    def __init__(self, code: int, name: str, text: str, what: str = ""):
        message = f"{name}: {text}"
        if what:
            message += f" (while {what})"
        super().__init__(message)
        self.code = code
        self.name = name
        self.text = text
        self.what = what

    @property
    def sticky(self) -> bool:
        """True for a device fault, after which the GPU is unusable in this process."""
        return self.name in STICKY_ERRORS


class PtxLoadError(CudaError):
    """The driver JIT rejected the PTX; `log` is the JIT's (ptxas's) error text."""

    def __init__(self, code: int, name: str, text: str, log: str, what: str = "loading PTX"):
        super().__init__(code, name, text, what)
        self.log = log
        if log:
            self.args = (f"{self.args[0]}\n{log}",)


class LaunchError(ValueError):
    """Arguments or launch configuration that do not fit the kernel's signature."""
