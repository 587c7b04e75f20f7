"""The engine of `oxidec run FILE.rs --kernel NAME ...`: build inputs from `--arg` specs, size the
launch, run on the GPU or the CPU simulator (or both, with `--compare`), print the outputs.

    --arg n=1024              a scalar, converted to the parameter's type (0x.., 1_000, true)
    --arg a=rand:f32:N[:SEED] random array: floats uniform in [-1, 1), ints in a small range
    --arg a=rand:N            the same with the parameter's element type
    --arg c=zeros:u32:N       also ones:T:N and arange:T:N; N may be a shape like 64x64
    --arg a=input.npy         an array from a .npy file
    --arg act=Act::Leaky(0.1) an enum (or struct) by value, in Rust syntax: `Relu`,
                              `Clamp { lo: 0, hi: 6 }`, `(1, 2.5)` (runtime/values.py)

Without --grid the launch is 1-D, sized from the largest writable buffer with blocks of 256
(cuda-oxide's `LaunchConfig::for_num_elems`). Exit codes: 0 success, 1 failure (compile
errors, a device fault, a trap, outputs that differ under --compare), 2 usage errors.
"""
from __future__ import annotations

import sys

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import types as T
from .runtime import context
from .runtime.args import convert_scalar
from .runtime.dtypes import bf16_bits, numpy_dtype, parse_scalar_type
from .runtime.errors import CudaError, LaunchError, NoGpuError, PtxLoadError
from .runtime.launch import Dim3, dim3
from .runtime import values
from .outputs import OutputError
from .signature import KernelParam, KernelSignature

DEFAULT_BLOCK = 256
PREVIEW = 8
ARRAY_MAKERS = ("rand", "zeros", "ones", "arange")
# (rtol, atol) for --compare; integers and bools must match exactly
TOLERANCES = {np.dtype(np.float32): (1e-4, 1e-5), np.dtype(np.float64): (1e-10, 1e-12)}


class RunUsageError(Exception):
    """A command-line mistake: reported on stderr, exit code 2."""


# --grid / --block -------------------------------------------------------------

def parse_dims(text: Any, what: str) -> Dim3:
    """"256" or "16,16" or "8,8,4" (or an int / tuple) -> (x, y, z)."""
    if isinstance(text, (int, tuple, list)):
        items = text
    else:
        parts = [p.strip() for p in str(text).split(",")]
        try:
            items = tuple(int(p.replace("_", ""), 0) for p in parts)
        except ValueError:
            raise RunUsageError(f"--{what} {text}: expected X[,Y[,Z]] with positive integers") \
                from None
    try:
        return dim3(items, f"--{what}")
    except LaunchError as exc:
        raise RunUsageError(str(exc)) from None


# --arg -----------------------------------------------------------------------

@dataclass
class ArgValue:
    value: Any  # np.ndarray or NumPy scalar
    spec: str  # the --arg text
    note: str = ""  # e.g. the random seed


def split_assignment(text: str) -> tuple[str, str]:
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name.isidentifier() or not spec.strip():
        raise RunUsageError(f"--arg {text}: expected NAME=VALUE, e.g. n=1024, a=rand:f32:1024, "
                            "c=zeros:f32:1024 or a=input.npy")
    return name, spec.strip()


def parse_assignments(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in items:
        name, spec = split_assignment(text)
        if name in out:
            raise RunUsageError(f"--arg {name} is given twice")
        out[name] = spec
    return out


def build_arg(param: KernelParam, spec: str) -> ArgValue:
    """One parameter's value from its --arg spec."""
    if param.kind == "scalar" and values.is_aggregate(param.ty):
        value = values.parse_rust_value(spec)
        try:
            values.encode(param.ty, value, f"--arg {param.name}={spec}")
        except LaunchError as e:
            raise RunUsageError(str(e)) from None
        return ArgValue(value, spec)
    if param.kind == "scalar":
        return ArgValue(parse_scalar(param, spec), spec)
    maker = spec.split(":", 1)[0]
    if maker in ARRAY_MAKERS:
        return make_array(param, spec)
    if spec.endswith(".npy"):
        return ArgValue(load_npy(param, spec), spec)
    elem = param.elem
    raise RunUsageError(f"--arg {param.name}={spec}: `{param.name}: {param.ty}` needs an array: "
                        f"rand:{elem}:N, zeros:{elem}:N, ones:{elem}:N, arange:{elem}:N "
                        "or FILE.npy")


def parse_scalar(param: KernelParam, spec: str) -> np.generic:
    ty = param.ty
    where = f"--arg {param.name}={spec}"
    if spec.split(":", 1)[0] in ARRAY_MAKERS or spec.endswith(".npy"):
        raise RunUsageError(f"{where}: `{param.name}: {ty}` is a scalar; pass a number")
    text = spec.replace("_", "")
    value: Any
    if isinstance(ty, T.BoolTy):
        if text not in ("true", "false", "1", "0"):
            raise RunUsageError(f"{where}: expected true or false for `{param.name}: bool`")
        value = text in ("true", "1")
    elif isinstance(ty, T.IntTy):
        text = text.removesuffix(str(ty))
        try:
            value = int(text, 0)
        except ValueError:
            raise RunUsageError(f"{where}: expected an integer for `{param.name}: {ty}`") from None
    elif isinstance(ty, T.FloatTy):
        text = text.removesuffix(str(ty))
        try:
            value = float(text)
        except ValueError:
            raise RunUsageError(f"{where}: expected a number for `{param.name}: {ty}`") from None
    else:
        raise RunUsageError(f"{where}: parameter `{param.name}: {ty}` cannot be passed from "
                            "the command line")
    try:
        return convert_scalar(param, value)
    except LaunchError as exc:
        raise RunUsageError(f"{where}: {_strip_arg_prefix(str(exc), param.name)}") from None


def parse_shape(text: str, where: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(p.replace("_", ""), 0) for p in text.lower().split("x"))
    except ValueError:
        raise RunUsageError(f"{where}: bad length {text!r} (expected N or a shape like 64x64)") \
            from None
    if not shape or any(n < 0 for n in shape):
        raise RunUsageError(f"{where}: bad length {text!r}")
    return shape


def make_array(param: KernelParam, spec: str) -> ArgValue:
    """rand/zeros/ones/arange[:T]:N[:SEED]."""
    where = f"--arg {param.name}={spec}"
    fields = spec.split(":")
    maker, rest = fields[0], fields[1:]
    want = numpy_dtype(param.elem)
    if want is None:
        raise RunUsageError(f"{where}: `{param.name}: {param.ty}` has elements the host cannot "
                            "make")
    if rest and parse_scalar_type(rest[0]) is not None:
        given = numpy_dtype(parse_scalar_type(rest[0]))
        if given != want:
            raise RunUsageError(f"{where}: `{param.name}: {param.ty}` needs {param.elem} "
                                f"elements, not {rest[0]}")
        rest = rest[1:]
    elif len(rest) >= 2 and rest[0][:1].isalpha():
        # `rand:f33:100`: a type name oxidec does not know, not a bad length
        raise RunUsageError(f"{where}: `{rest[0]}` is not an element type; `{param.name}: "
                            f"{param.ty}` takes {maker}:{param.elem}:N")
    max_fields = 2 if maker == "rand" else 1
    if not rest or len(rest) > max_fields:
        form = f"{maker}:{param.elem}:N" + (":SEED" if maker == "rand" else "")
        raise RunUsageError(f"{where}: expected {form}")
    shape = parse_shape(rest[0], where)
    if maker == "zeros":
        return ArgValue(np.zeros(shape, want), spec)
    if maker == "ones":
        return ArgValue(np.ones(shape, want), spec)
    if maker == "arange":
        n = int(np.prod(shape))
        return ArgValue(np.arange(n).astype(want).reshape(shape), spec)
    if len(rest) == 2:
        try:
            seed = int(rest[1], 0)
        except ValueError:
            raise RunUsageError(f"{where}: bad seed {rest[1]!r}") from None
    else:
        seed = secrets.randbelow(1 << 32)
    array = random_array(param.elem, shape, seed)
    again = f"rand:{param.elem}:{rest[0]}:{seed}"
    return ArgValue(array, spec, f"seed {seed} (again: --arg {param.name}={again})")


def random_array(elem: T.Ty, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Floats uniform in [-1, 1); signed ints in [-100, 100); unsigned in [0, 100)."""
    rng = np.random.default_rng(seed)
    dtype = numpy_dtype(elem)
    if elem == T.BF16:  # the bits of bf16 values (runtime/dtypes.py)
        return bf16_bits(rng.uniform(-1.0, 1.0, shape))
    if isinstance(elem, T.FloatTy):
        return rng.uniform(-1.0, 1.0, shape).astype(dtype)
    if isinstance(elem, T.BoolTy):
        return rng.random(shape) < 0.5
    lo = -100 if elem.signed else 0
    return rng.integers(lo, 100, shape).astype(dtype)


def load_npy(param: KernelParam, spec: str) -> np.ndarray:
    try:
        return np.load(spec, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise RunUsageError(f"--arg {param.name}={spec}: cannot read {spec}: {exc}") from None


def build_args(sig: KernelSignature, specs: dict[str, str]) -> list[ArgValue]:
    """One ArgValue per parameter, in order; unknown and missing names are usage errors."""
    names = [p.name for p in sig.params]
    for name in specs:
        if name not in names:
            raise RunUsageError(f"--arg {name}: kernel `{sig.name}` has no parameter `{name}`"
                                f"{_did_you_mean(name, names)} (parameters: {_params(sig)})")
    missing = [p for p in sig.params if p.name not in specs]
    if missing:
        examples = " ".join(f"--arg {p.name}={_example(p)}" for p in missing)
        raise RunUsageError(f"kernel `{sig.name}` needs --arg for "
                            f"{', '.join(f'{p.name}: {p.ty}' for p in missing)}; e.g. {examples}")
    return [build_arg(p, specs[p.name]) for p in sig.params]


def _example(p: KernelParam) -> str:
    if isinstance(p.ty, T.EnumTy):
        return f"{p.ty.name}::{p.ty.variants[0].name}" + ("(..)" if p.ty.variants[0].fields else "")
    if p.kind == "scalar":
        return "true" if isinstance(p.ty, T.BoolTy) else "1024" if isinstance(p.ty, T.IntTy) \
            else "1.0"
    shape = "64x64" if p.kind == "disjoint2d" else "1024"  # a 2-D array: rows of its width
    return f"{'zeros' if p.writable else 'rand'}:{p.elem}:{shape}"


def _params(sig: KernelSignature) -> str:
    return ", ".join(f"{p.name}: {p.ty}" for p in sig.params)


def _did_you_mean(name: str, known: list[str]) -> str:
    import difflib
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    return f"; did you mean `{close[0]}`?" if close else ""


def _strip_arg_prefix(message: str, name: str) -> str:
    return message.removeprefix(f"argument `{name}`: ")


# Launch geometry -------------------------------------------------------------

def default_launch(sig: KernelSignature, values: list[Any], block: Dim3 | None
                   ) -> tuple[Dim3, Dim3]:
    """1-D launch covering the largest writable buffer (else the largest array)."""
    block = block or (DEFAULT_BLOCK, 1, 1)
    if block[1] != 1 or block[2] != 1:
        raise RunUsageError(f"--grid is needed with a {2 if block[2] == 1 else 3}-D --block")
    sizes = [(p.writable, int(np.size(v))) for p, v in zip(sig.params, values)
             if p.kind != "scalar"]
    writable = [n for w, n in sizes if w]
    candidates = writable or [n for _, n in sizes]
    if not candidates:
        raise RunUsageError(f"cannot size the launch of `{sig.name}`: it has no array "
                            "parameters; pass --grid")
    n = max(candidates)
    return (max(1, -(-n // block[0])), 1, 1), block


# The command -------------------------------------------------------------------

@dataclass
class Run:
    device: str
    result: Any  # api.LaunchResult
    values: list[Any] = field(default_factory=list)


def set_constants(mod: Any, specs) -> None:
    """`--const NAME=1,2,3` / `--const NAME=file.npy`: a `#[constant]` static's value."""
    from .host.constants import ConstantError, find_constant, parse_values
    for spec in specs:
        name, text = split_assignment(spec)
        try:
            decl = find_constant(mod.program, name)
            mod.constants[decl.name] = parse_values(text, decl.ty, name)
        except ConstantError as exc:
            raise RunUsageError(str(exc)) from None


SIM_ARCH = "sm_90"


def compile_module(path: str, arch: str | None):
    """Compile FILE into an api.KernelModule (tests replace this)."""
    from .api import compile_file
    options = {"arch": arch} if arch else {}
    return compile_file(path, **options)


def run_command(path: str, kernel: str | None, grid: Any, block: Any, args: list[str],
                sim: bool, gpu: bool, time: bool, save: str | None, compare: bool,
                console: Any = None, err_console: Any = None,
                consts: list[str] | None = None) -> int:
    """Run one kernel from the command line; returns the exit code. Outputs go to `console`,
    notes and errors to `err_console` (rich Consoles on stdout / stderr by default)."""
    from rich.console import Console
    # Off a terminal (pipes, CI logs) rich assumes 80 columns and squeezes the value column
    # to "[0…"; a wider default keeps the first values readable there.
    width = None if sys.stdout.isatty() else 132
    console = console if console is not None else Console(width=width)
    err_console = err_console if err_console is not None else Console(stderr=True, width=width)

    def error(message: str) -> None:
        err_console.print(f"error: {message}", markup=False, highlight=False)

    try:
        return _run(path, kernel, grid, block, args, sim, gpu, time, save, compare, console,
                    err_console, consts or [])
    except RunUsageError as exc:
        error(str(exc))
        return 2
    except OutputError as exc:
        error(str(exc))
        return 1
    except LaunchError as exc:
        error(str(exc))
        return 2
    except NoGpuError as exc:
        error(str(exc))
        return 1
    except PtxLoadError as exc:
        error(f"the CUDA driver rejected the generated PTX (a bug in oxidec): {exc}")
        return 1
    except CudaError as exc:
        error(str(exc))
        if exc.sticky:
            err_console.print("note: the kernel faulted on the GPU (a failed bounds check or "
                              "gpu_assert!, or an invalid memory access); run it with --sim to "
                              "see the thread and source line", markup=False, highlight=False)
        return 1
    except Exception as exc:
        # oxidec.sim's errors, matched by name so that a missing or broken simulator package
        # cannot break this handler: SimTrap (a thread trapped) is a SimError.
        kinds = {cls.__name__ for cls in type(exc).__mro__}
        if "SimGpuOnly" in kinds:  # a diagnostic with a code (OX0030), as the compiler's
            from .diagnostics import render_all
            err_console.print(render_all([exc.diagnostic]), markup=False, highlight=False)
            return 1
        if "SimTrap" in kinds:
            error(f"kernel trapped on the CPU simulator: {exc}")
            return 1
        if "SimError" in kinds:
            error(f"the CPU simulator could not run the kernel: {exc}")
            return 1
        raise


def _run(path, kernel, grid, block, args, sim, gpu, time, save, compare, console,
         err_console, consts=()) -> int:
    from .diagnostics import CompileError, render_all

    def note(message: str) -> None:
        err_console.print(message, markup=False, highlight=False)

    if sim and gpu:
        raise RunUsageError("--sim and --gpu cannot be used together")
    if compare and (sim or gpu):
        raise RunUsageError("--compare runs on both the simulator and the GPU; "
                            "drop --sim/--gpu")
    grid3 = parse_dims(grid, "grid") if grid is not None else None
    block3 = parse_dims(block, "block") if block is not None else None
    specs = parse_assignments(list(args or []))
    if not Path(path).is_file():
        raise RunUsageError(f"no such file: {path}")

    need_gpu = gpu or compare
    reason = None if sim else context.gpu_unavailable_reason()
    if reason is not None and need_gpu:
        raise NoGpuError(reason.removeprefix("no CUDA GPU available: "))
    use_gpu = not sim and reason is None

    from .api import native_arch, unknown_kernel_message
    try:
        # on the simulator: the newest target, so that an sm_90 kernel meets the simulator's
        # own limits (OX0030 for clusters, TMA, wgmma) rather than an --arch it cannot set
        mod = compile_module(path, native_arch() if use_gpu else SIM_ARCH)
    except CompileError as exc:
        err_console.print(render_all(exc.diagnostics), markup=False, highlight=False)
        return 1
    warnings = getattr(getattr(mod, "compilation", None), "diagnostics", None)
    if warnings:
        err_console.print(render_all(warnings), markup=False, highlight=False)

    names = mod.kernel_names()
    if kernel is None:
        if len(names) != 1:
            listing = ", ".join(names) if names else "none"
            raise RunUsageError(f"--kernel is needed: {path} has {len(names)} kernels "
                                f"({listing})")
        kernel = names[0]
    if kernel not in names:
        raise RunUsageError(unknown_kernel_message(kernel, names, path))
    k = mod.kernel(kernel)
    sig = k.signature
    set_constants(mod, consts)

    built = build_args(sig, specs)
    for p, a in zip(sig.params, built):
        if a.note:
            note(f"{p.name}: {a.spec}: {a.note}")
    values = [a.value for a in built]
    if grid3 is None:
        grid3, block3 = default_launch(sig, values, block3)
    block3 = block3 or (DEFAULT_BLOCK, 1, 1)
    k.check_args(*values)  # usage errors before running anything
    if not sim and reason is not None:  # after the argument errors, which it has no part in
        note(f"note: no CUDA GPU found ({reason.removeprefix('no CUDA GPU available: ')}); "
             "running on the CPU simulator")

    runs: list[Run] = []
    if compare:
        for device in ("sim", "gpu"):
            copies = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
            runs.append(Run(device, k.launch(grid3, block3, *copies, device=device, time=time),
                            copies))
    else:
        device = "gpu" if use_gpu else "sim"
        runs.append(Run(device, k.launch(grid3, block3, *values, device=device, time=time),
                        values))

    main = runs[-1]
    print_outputs(console, sig, main, grid3, block3)
    if time:
        for run in runs:
            console.print(f"time on {device_label(run.device)}: {run.result.timing}",
                          markup=False, highlight=False)
    status = 0
    if compare:
        status = print_comparison(console, sig, runs[0].values, runs[1].values)
    if save:
        save = save_npz(save, sig, main.values, runs[0].values if compare else None)
        console.print(f"saved arguments and outputs to {save}", markup=False, highlight=False)
    return status


def device_label(device: str) -> str:
    if device == "gpu":
        ctx = context.current()
        return f"GPU ({ctx.name}, {ctx.arch})"
    return "CPU simulator"


def preview(array: np.ndarray) -> str:
    flat = array.reshape(-1)
    items = [_fmt(x) for x in flat[:PREVIEW]]
    if flat.size > PREVIEW:
        items.append("...")
    return "[" + " ".join(items) + "]"


def _fmt(x: Any) -> str:
    if isinstance(x, np.void) and x.dtype.names:  # an element of an array of structs
        return "{" + ", ".join(f"{n}: {_fmt(x[n])}" for n in x.dtype.names) + "}"
    if isinstance(x, np.ndarray):  # an array field of a struct
        return "[" + ", ".join(_fmt(v) for v in x.reshape(-1)) + "]"
    if isinstance(x, (np.floating, float)):
        return f"{float(x):.6g}"
    if isinstance(x, (np.bool_, bool)):
        return "true" if x else "false"
    return str(int(x))


def checksum(array: np.ndarray) -> float:
    if array.dtype.names:  # an array of structs: the sum over every numeric field
        return sum(checksum(array[n]) for n in array.dtype.names)
    return float(np.sum(array, dtype=np.float64))


def print_outputs(console: Any, sig: KernelSignature, run: Run, grid: Dim3, block: Dim3) -> None:
    from rich.table import Table
    label = device_label(run.device)
    table = Table(title=f"kernel `{sig.name}`: grid {grid} x block {block} on {label}")
    for col in ("output", "dtype", "shape", f"first {PREVIEW} values", "checksum", "device"):
        table.add_column(col, no_wrap=not col.startswith("first"))  # only the values wrap
    for p, v in zip(sig.params, run.values):
        if p.kind != "scalar" and p.writable:
            table.add_row(p.name, str(v.dtype), str(v.shape), preview(v), f"{checksum(v):.10g}",
                          label)
    console.print(table)


def differences(ref: np.ndarray, got: np.ndarray) -> tuple[float, float, bool]:
    """(max abs difference, max relative difference, within tolerance) of got vs ref."""
    r = ref.astype(np.float64).reshape(-1)
    g = got.astype(np.float64).reshape(-1)
    both_nan = np.isnan(r) & np.isnan(g)
    same = (r == g) | both_nan
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(same, 0.0, np.abs(g - r))
        diff = np.where(np.isnan(diff), np.inf, diff)
        rel = np.where(same, 0.0, diff / np.maximum(np.abs(r), np.finfo(np.float64).tiny))
    max_abs = float(diff.max()) if diff.size else 0.0
    max_rel = float(rel.max()) if rel.size else 0.0
    tol = TOLERANCES.get(ref.dtype)
    if tol is None:
        ok = bool(same.all())
    else:
        rtol, atol = tol
        with np.errstate(invalid="ignore"):
            ok = bool(np.all(same | (diff <= atol + rtol * np.abs(r))))
    return max_abs, max_rel, ok


def print_comparison(console: Any, sig: KernelSignature, sim_values: list[Any],
                     gpu_values: list[Any]) -> int:
    from rich.table import Table
    table = Table(title="GPU vs CPU simulator")
    for col in ("output", "max abs diff", "max rel diff", "verdict"):
        table.add_column(col)
    all_ok = True
    for p, s, g in zip(sig.params, sim_values, gpu_values):
        if p.kind == "scalar" or not p.writable:
            continue
        max_abs, max_rel, ok = differences(s, g)
        all_ok &= ok
        table.add_row(p.name, f"{max_abs:.3g}", f"{max_rel:.3g}", "match" if ok else "DIFFER")
    console.print(table)
    if not all_ok:
        console.print("outputs differ beyond tolerance (f32: rtol 1e-4, atol 1e-5; "
                      "f64: rtol 1e-10, atol 1e-12; integers exact)", markup=False,
                      highlight=False)
    return 0 if all_ok else 1


def save_npz(path: str, sig: KernelSignature, values: list[Any],
             sim_values: list[Any] | None) -> str:
    """Write the arrays to PATH (`.npz` added as np.savez adds it); returns the name."""
    arrays = {p.name: np.asarray(v) for p, v in zip(sig.params, values)}
    if sim_values is not None:
        for p, v in zip(sig.params, sim_values):
            if p.kind != "scalar" and p.writable:
                arrays[f"sim.{p.name}"] = v
    import io
    from .outputs import write_outputs
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    if path != "-" and not path.endswith(".npz"):
        path += ".npz"  # as np.savez names it
    write_outputs((path, buf.getvalue()))
    return path
