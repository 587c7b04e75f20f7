"""The GPU host runtime over cuda-python (`cuda.bindings.driver`).

One job per module:
- `errors`   the exception types (NoGpuError, CudaError, PtxLoadError, LaunchError)
- `cuda`     checked driver calls (`check`)
- `context`  device 0's primary context: lazy init, capability, teardown, reset after a fault
- `module`   PTX -> loaded module (`load_ptx`) -> kernel (`get_function`)
- `memory`   `DeviceBuffer`: alloc, copy to/from NumPy, free
- `dtypes`   the Rust scalar type -> NumPy dtype / ctypes table
- `args`     host arguments checked against a kernel signature (no GPU needed)
- `launch`   launch geometry, the PTX parameter ABI, `cuLaunchKernel`
- `timing`   event timing (GPU) and wall-clock timing (simulator)

Importing this package does not touch the driver; the first `context.current()` does.
"""
from .args import PreparedArg, prepare_args
from .context import (current, device_capability, device_name, gpu_available,
                      gpu_unavailable_reason)
from .errors import CudaError, LaunchError, NoGpuError, PtxLoadError
from .launch import KernelParams, check_launch_config, dim3, launch, pack_params, ptx_params
from .memory import DeviceBuffer
from .module import Function, Module, load_ptx
from .timing import Timing, time_gpu, time_wall

__all__ = [
    "CudaError", "DeviceBuffer", "Function", "KernelParams", "LaunchError", "Module",
    "NoGpuError", "PreparedArg", "PtxLoadError", "Timing", "check_launch_config", "current",
    "device_capability", "device_name", "dim3", "gpu_available", "gpu_unavailable_reason",
    "launch", "load_ptx", "pack_params", "prepare_args", "ptx_params", "time_gpu", "time_wall",
]
