"""The Python API, in the manner of Numba's CUDA kernels:

    import numpy as np
    from oxidec.api import compile_file

    mod = compile_file("samples/vecadd.rs")
    a, b = np.random.rand(2, 1 << 20).astype(np.float32)
    c = np.empty_like(a)
    mod.vecadd[(1 << 20) // 256, 256](a, b, c)          # device="auto": GPU, else simulator
    r = mod.vecadd.launch(4096, 256, a, b, c, device="gpu", time=True)
    print(r.device_used, r.median_ms)

Arguments follow the kernel's parameters: NumPy arrays for `&[T]`, `DisjointSlice<T>` and raw
pointers, numbers for scalars. They are checked against the signature before anything runs
(`LaunchError`); writable arrays are updated in place. `KernelModule.from_ptx` wraps PTX from
elsewhere (nvcc, hand-written) with hand-built signatures, for the GPU only.
"""
from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import driver as _driver
from .runtime import context
from .runtime.args import PreparedArg, describe_signature, prepare_args
from .runtime.errors import CudaError, LaunchError, NoGpuError
from .runtime.launch import (Dim3, check_launch_config, cluster_launch_shape, dim3, launch,
                             pack_params)
from .runtime.timing import Timing, time_gpu, time_wall
from .runtime.tma import TensorMap
from .signature import KernelSignature

DEVICES = ("auto", "gpu", "sim")
COMPILE_OPTIONS = ("arch", "opt_level", "fmad", "line_info")
GPU_WARMUP, GPU_REPEAT = 3, 20
SIM_WARMUP, SIM_REPEAT = 0, 3


# Compiling -------------------------------------------------------------------

def compile_source(text: str, filename: str = "<input>", **options: Any) -> "KernelModule":
    """Compile kernel source text; raises oxidec.diagnostics.CompileError on errors.

    Options: arch ("sm_80", ..., or "native" for the GPU's own), opt_level, fmad, line_info.
    """
    comp = _driver.compile_source(text, filename, _options(options))
    return KernelModule.from_compilation(comp)


def compile_file(path: str | Path, **options: Any) -> "KernelModule":
    comp = _driver.compile_file(path, _options(options))
    return KernelModule.from_compilation(comp)


def _options(options: dict[str, Any]) -> _driver.Options:
    unknown = sorted(set(options) - set(COMPILE_OPTIONS))
    if unknown:
        raise TypeError(f"unknown compile option `{unknown[0]}` "
                        f"(expected one of {', '.join(COMPILE_OPTIONS)})")
    opts = _driver.Options(**options)
    if opts.arch == "native":
        opts.arch = native_arch()
    opts.stop = "ptx"
    return opts


def native_arch() -> str:
    """The newest target oxidec emits that the GPU runs: its own, or the closest below it."""
    return arch_for_capability(context.device_capability())


def arch_for_capability(cap: str) -> str:
    def number(arch: str) -> int:
        return int(arch.removeprefix("sm_").rstrip("a"))
    fitting = [a for a in _driver.ARCHES if number(a) <= number(cap)]
    return max(fitting, key=number) if fitting else min(_driver.ARCHES, key=number)


# Modules and kernels ---------------------------------------------------------

class UnknownKernelError(AttributeError, LookupError):
    pass


class KernelModule:
    """The kernels of one compilation; `mod.NAME` or `mod["NAME"]` is a `Kernel`."""

    def __init__(self, signatures: dict[str, KernelSignature], *, ptx: str | None = None,
                 program: Any = None, name: str = "<module>", compilation: Any = None):
        self.signatures = dict(signatures)
        self.ptx = ptx
        self.program = program
        self.name = name
        self.compilation = compilation
        self._kernels: dict[str, Kernel] = {}
        self._gpu = None  # runtime.module.Module, loaded on first GPU launch
        self.constants: dict[str, bytes] = {}  # `#[constant]` statics' values, by static name

    def set_constant(self, name: str, value: Any) -> None:
        """Set `#[constant] static NAME: ConstantMemory<T>` for every later launch (on the
        simulator and the GPU): `value` has T's size (`[f32; 8]`: 8 float32); until set it
        is zero. ConstantError (a ValueError) for an unknown name or a value of another size."""
        from .host.constants import encode, find_constant
        decl = find_constant(self.program, name)
        self.constants[decl.name] = encode(value, decl.ty, name)

    @classmethod
    def from_compilation(cls, comp: Any) -> "KernelModule":
        return cls(comp.kernels, ptx=comp.ptx, program=comp.program,
                   name=getattr(comp.source, "name", "<module>"), compilation=comp)

    @classmethod
    def from_ptx(cls, ptx: str, signatures: dict[str, KernelSignature] | Iterable[KernelSignature],
                 name: str = "<ptx>") -> "KernelModule":
        """PTX from elsewhere plus the signatures of its kernels; runs on the GPU only."""
        if not isinstance(signatures, dict):
            signatures = {s.name: s for s in signatures}
        return cls(signatures, ptx=ptx, name=name)

    def kernel_names(self) -> list[str]:
        return list(self.signatures)

    def kernel(self, name: str) -> "Kernel":
        k = self._kernels.get(name)
        if k is None:
            sig = self.signatures.get(name)
            if sig is None:
                raise UnknownKernelError(unknown_kernel_message(name, self.kernel_names(),
                                                                self.name))
            k = self._kernels[name] = Kernel(self, sig)
        return k

    def __getattr__(self, name: str) -> "Kernel":
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)

    def __getitem__(self, name: str) -> "Kernel":
        return self.kernel(name)

    def __iter__(self):
        return (self.kernel(n) for n in self.signatures)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.signatures))

    def __repr__(self) -> str:
        return f"<KernelModule {self.name}: {', '.join(self.signatures) or 'no kernels'}>"

    def gpu_function(self, name: str):
        """The loaded kernel; (re)loads the PTX into the current context when needed."""
        if self.ptx is None:
            raise LaunchError(f"module {self.name} has no PTX; it cannot run on the GPU")
        ctx = context.current()
        if self._gpu is None or self._gpu.ctx is not ctx:
            from .runtime.module import load_ptx
            self._gpu = load_ptx(self.ptx, ctx)
        return self._gpu.get_function(name)


def unknown_kernel_message(name: str, known: list[str], where: str) -> str:
    msg = f"no kernel named `{name}` in {where}"
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    if close:
        msg += f"; did you mean `{close[0]}`?"
    if known:
        msg += f" (kernels: {', '.join(known)})"
    else:
        msg += " (it has no #[kernel] functions)"
    return msg


@dataclass
class LaunchResult:
    kernel: str
    device_used: str  # "gpu" | "sim"
    grid: Dim3
    block: Dim3
    timing: Timing | None = None
    fallback_reason: str | None = None  # why "auto" chose the simulator
    args: list[PreparedArg] = field(default_factory=list, repr=False)

    @property
    def median_ms(self) -> float | None:
        return self.timing.median_ms if self.timing else None


class Kernel:
    def __init__(self, module: KernelModule, signature: KernelSignature):
        self.module = module
        self.signature = signature
        self.name = signature.name

    def __repr__(self) -> str:
        return f"<kernel {self.name}({describe_signature(self.signature)})>"

    @property
    def cooperative(self) -> bool:
        """`#[cooperative_launch]`: launched cooperatively on the GPU (`grid::sync()`)."""
        launch = self.signature.launch
        return bool(launch is not None and launch.cooperative)

    def __getitem__(self, config: Any) -> "ConfiguredKernel":
        if not isinstance(config, tuple) or len(config) not in (2, 3):
            raise LaunchError(f"launch configuration: use {self.name}[grid, block] or "
                              f"{self.name}[grid, block, shared_bytes], got {config!r}")
        return ConfiguredKernel(self, *config)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise LaunchError(f"kernel `{self.name}` needs a launch configuration: "
                          f"{self.name}[grid, block](...) or {self.name}.launch(grid, block, ...)")

    def check_args(self, *args: Any) -> list[PreparedArg]:
        """Check arguments against the signature without running anything."""
        return prepare_args(self.signature, args)

    def launch(self, grid: Any, block: Any, *args: Any, device: str = "auto", time: bool = False,
               shared_bytes: int = 0, warmup: int | None = None, repeat: int | None = None,
               cluster: Any = None) -> LaunchResult:
        """Run the kernel once (writable arrays updated in place); with `time`, also time it
        over repeated launches (after the result has been copied back). `cluster` (sm_90,
        GPU only): launch the blocks in thread-block clusters of that shape
        (cuLaunchKernelEx); a kernel with `#[cluster_launch]` has its own shape."""
        grid3, block3 = dim3(grid, "grid"), dim3(block, "block")
        check_launch_config(grid3, block3, shared_bytes, self.signature)
        runtime_cluster = cluster_launch_shape(self.signature, grid3, cluster)
        prepared = prepare_args(self.signature, args)
        self._check_contract(grid3, block3, args, shared_bytes)
        device_used, reason = self._choose_device(device)
        if runtime_cluster is not None and device_used == "sim":
            raise LaunchError(f"kernel `{self.name}` launched in clusters of "
                              f"{runtime_cluster} blocks runs on the GPU only: the CPU "
                              "simulator does not model thread-block clusters")
        result = LaunchResult(self.name, device_used, grid3, block3, fallback_reason=reason,
                              args=prepared)
        if device_used == "gpu":
            result.timing = self._run_gpu(grid3, block3, shared_bytes, prepared, time,
                                          GPU_WARMUP if warmup is None else warmup,
                                          GPU_REPEAT if repeat is None else repeat,
                                          runtime_cluster)
        else:
            result.timing = self._run_sim(grid3, block3, shared_bytes, prepared, time,
                                          SIM_WARMUP if warmup is None else warmup,
                                          SIM_REPEAT if repeat is None else repeat)
        return result

    def _check_contract(self, grid: Dim3, block: Dim3, args: tuple, shared_bytes: int = 0
                        ) -> None:
        launch = self.signature.launch
        contract = launch.contract if launch is not None else None
        if contract is None:
            return
        from .contracts import check_contract
        env = {p.name: a for p, a in zip(self.signature.params, args)}
        problems = check_contract(self.name, contract, grid, block, env, shared_bytes)
        if problems:
            raise LaunchError("\n".join(problems))

    def _choose_device(self, device: str) -> tuple[str, str | None]:
        if device not in DEVICES:
            raise LaunchError(f"device must be one of {', '.join(DEVICES)}, got {device!r}")
        if device == "gpu":
            context.current()  # NoGpuError says why not
            return "gpu", None
        if device == "sim":
            if self.module.program is None:
                raise LaunchError(f"module {self.module.name} has no MIR (it was built from PTX); "
                                  "it cannot run on the simulator")
            return "sim", None
        reason = context.gpu_unavailable_reason() if self.module.ptx is not None else \
            "the module has no PTX"
        if reason is None:
            return "gpu", None
        why = reason.removeprefix("no CUDA GPU available: ")
        if self.module.program is None:
            raise NoGpuError(f"{why}; and module {self.module.name} has no MIR for the simulator")
        try:
            simulator()
        except LaunchError as exc:
            raise NoGpuError(f"{why}; and {exc}") from None
        return "sim", reason

    def _run_gpu(self, grid: Dim3, block: Dim3, shared_bytes: int, prepared: list[PreparedArg],
                 time: bool, warmup: int, repeat: int, cluster: Dim3 | None = None
                 ) -> Timing | None:
        from .runtime.memory import DeviceBuffer
        fn = self.module.gpu_function(self.name)
        ctx = fn.module.ctx
        if self.module.constants:
            from .ptx.module import static_symbols
            symbols = static_symbols(self.module.program)
            for static, data in self.module.constants.items():
                fn.module.write_global(symbols[static], data)
        buffers: list[tuple[PreparedArg | None, DeviceBuffer]] = []
        maps: list[tuple[TensorMap, DeviceBuffer]] = []  # `TmaDescriptor` arguments
        failed = True
        try:
            values: list[Any] = []
            for arg in prepared:
                if isinstance(arg.value, TensorMap):  # its tensor, then its descriptor
                    tensor = DeviceBuffer.from_array(arg.value.array.reshape(-1), ctx)
                    maps.append((arg.value, tensor))
                    buffers.append((None, tensor))
                    raw = arg.value.encode(ctx.drv, tensor.ptr)
                    if arg.param.kind != "ptr":  # by value: the bytes are the parameter
                        values.append(raw)
                        continue
                    desc = DeviceBuffer.from_array(bytes_array(raw), ctx)  # a device copy
                    buffers.append((None, desc))
                    values.append(desc.ptr)
                    continue
                if not arg.is_array:
                    values.append(arg.value)
                    continue
                buf = DeviceBuffer.from_array(arg.flat, ctx)
                buffers.append((arg, buf))
                values.append(buf.ptr if arg.param.kind == "ptr" else
                              (buf.ptr, arg.length, arg.row_width)
                              if arg.param.kind == "disjoint2d" else (buf.ptr, arg.length))
            params = pack_params(self.signature, values)
            launch(fn, grid, block, params, shared_bytes, cluster=cluster,
                   cooperative=self.cooperative)
            for arg, buf in buffers:
                if arg is not None and arg.param.writable:
                    buf.copy_to(arg.flat)
                    arg.write_back()
            for tmap, tensor in maps:  # bulk tensor stores write through the map
                if tmap.array.flags.writeable:
                    tensor.copy_to(tmap.array.reshape(-1))
            timing = None
            if time:
                timing = time_gpu(lambda: launch(fn, grid, block, params, shared_bytes, sync=False,
                                                 cluster=cluster, cooperative=self.cooperative),
                                  ctx, warmup=warmup, repeat=repeat,
                                  what=f"timing kernel `{self.name}`")
            failed = False
            return timing
        finally:
            for _, buf in buffers:
                try:
                    buf.free()
                except CudaError:
                    if not failed:
                        raise

    def _run_sim(self, grid: Dim3, block: Dim3, shared_bytes: int, prepared: list[PreparedArg],
                 time: bool, warmup: int, repeat: int) -> Timing | None:
        run_kernel = simulator()
        program = self.module.program

        def sim_args(copy_writable: bool) -> list[Any]:
            out = []
            for arg in prepared:
                if not arg.is_array or isinstance(arg.value, TensorMap):  # (TMA: OX0030)
                    out.append(arg.value)
                elif arg.param.kind == "disjoint2d":  # 2-D: the simulator takes its width
                    out.append(arg.value.copy() if copy_writable else arg.value)
                elif arg.param.writable:
                    out.append(arg.flat.copy() if copy_writable else arg.flat)
                else:
                    view = arg.flat.view()
                    view.flags.writeable = False  # the simulator must not write a `&[T]`
                    out.append(view)
            return out

        extra = {"constants": self.module.constants} if self.module.constants else {}
        run_kernel(program, self.name, grid, block, sim_args(False), shared_bytes, **extra)
        for arg in prepared:
            if arg.is_array and not isinstance(arg.value, TensorMap):
                arg.write_back()
        if not time:
            return None
        return time_wall(lambda: run_kernel(program, self.name, grid, block, sim_args(True),
                                            shared_bytes, **extra), warmup=warmup, repeat=repeat)


def bytes_array(raw: bytes):
    import numpy as np
    return np.frombuffer(raw, np.uint8).copy()


def simulator():
    """`oxidec.sim.run_kernel`, looked up at call time (tests substitute a fake)."""
    try:
        sim = importlib.import_module("oxidec.sim")
        return sim.run_kernel
    except (ImportError, AttributeError) as exc:
        raise LaunchError(f"the CPU simulator is not available ({exc})") from None


@dataclass
class ConfiguredKernel:
    kernel: Kernel
    grid: Any
    block: Any
    shared_bytes: int = 0

    def __call__(self, *args: Any, device: str = "auto") -> None:
        self.kernel.launch(self.grid, self.block, *args, device=device,
                           shared_bytes=self.shared_bytes)


__all__ = ["DEVICES", "ConfiguredKernel", "Kernel", "KernelModule", "LaunchError",
           "LaunchResult", "NoGpuError", "UnknownKernelError", "arch_for_capability",
           "compile_file", "compile_source", "native_arch"]
