"""A CPU simulator that runs a whole grid by interpreting MIR (not PTX).

    from oxidec.sim import run_kernel, SimTrap, SimError
    run_kernel(program, "vecadd", grid=(4, 1, 1), block=(256, 1, 1), args=[a, b, c])

Modules, in the order data flows:
- `compile.py`  MIR -> flat CFG of closures (device calls inlined per call site, blocks split
                at barriers); `order.py` numbers the blocks for reconvergence
- `plans.py`    places compiled to local-storage / memory plans; constants
- `machine.py`  the lane-vectorised scheduler: per-lane program counters, lowest block first,
                barriers, traps
- `launch.py`   arguments, memory regions, batches of blocks; `run_kernel`, `SimModule`
- `layout.py`   canonical types, value trees (one NumPy row per lane), memory layouts
- `memory.py`   64-bit addresses (region << 40 | offset) over NumPy byte views; atomics
- `ops.py`      Rust semantics of operators and `as` on lane vectors
- `intrinsics.py` special registers, math, bits, pointers, warp collectives, atomics
                (`@intrinsic`)
- `fma.py`      exact fused multiply-add without `math.fma`
- `errors.py`   SimError, SimTrap
"""
from .compile import FlatKernel, compile_kernel
from .errors import SimError, SimTrap
from .intrinsics import INTRINSICS, intrinsic
from .launch import SimModule, kernel_names, run_kernel, simulate_module

__all__ = ["run_kernel", "SimTrap", "SimError", "SimModule", "simulate_module", "kernel_names",
           "compile_kernel", "FlatKernel", "intrinsic", "INTRINSICS"]
