"""NumPy references for the kernels in samples/: one table, SAMPLES, for the tests and the benchmarks.

    from samples.reference import SAMPLES, ALL_CASES

    for case in ALL_CASES:                      # or SAMPLES["saxpy"]
        inputs = case.make_inputs(rng)          # every parameter, in Rust (= ABI) order
        grid, block = case.launch(inputs)       # ((gx, gy, gz), (bx, by, bz))
        run(case.path, case.kernel, case.args(inputs), grid, block)   # fills the output buffers
        case.assert_matches(inputs)             # or problems = case.check(inputs)

`make_inputs(rng, small=False)` returns a dict with one entry per kernel parameter, in the
order of the Rust signature: slices as 1-D NumPy arrays and scalars as NumPy scalars of the
exact parameter type (`np.float32(2.5)`, `np.uint64(n)` for a usize). A `DisjointSlice`
parameter is an output: its entry is a preallocated buffer of the right dtype and length,
filled with a sentinel (NaN, 0xDEADBEEF...) so that an element the kernel never writes shows
up; `case.fresh_outputs(inputs)` gives new ones for a second run. Inputs are fresh random
draws every time, never all zeros, and sizes are not multiples of the block size, so the
bounds checks of the last block are exercised. `small=True` draws sizes that a CPU simulator
gets through in seconds (still with partial blocks).

`reference(inputs)` computes what the kernel must write, mirroring its arithmetic: integer
kernels wrap in uint32/uint64 exactly as Rust does; float kernels that round differently with
and without fma contraction are compared against a float64 reference within a per-element
error bound that holds for both (see `Tolerance`); mandelbrot uses explicit `mul_add` in the
kernel and an exact float32 fma here (`fma32`), so its counts match bit for bit.

The table depends on NumPy only (no oxidec import), so the tests, the simulator and the GPU
benchmarks can all use it.
"""
from __future__ import annotations

import importlib
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

SAMPLES_DIR = Path(__file__).resolve().parent

#: unit roundoff of float32 (half an ulp of 1.0): |fl(x) - x| <= U32 * |x| for one rounding.
U32 = 2.0**-24

Dim3 = tuple[int, int, int]
Inputs = Mapping[str, Any]

BLOCK_1D = 256  # threads per block for the 1-D kernels (what LaunchConfig::for_num_elems uses)
BLOCK_2D = (16, 16, 1)

SENTINELS = {
    np.dtype(np.float32): np.float32(np.nan),
    np.dtype(np.float64): np.float64(np.nan),
    np.dtype(np.float16): np.float16(np.nan),
    np.dtype(np.uint32): np.uint32(0xDEAD_BEEF),
    np.dtype(np.int32): np.int32(-0x2152_4111),
    np.dtype(np.uint64): np.uint64(0xDEAD_BEEF_DEAD_BEEF),
}


# --------------------------------------------------------------------------------------------
# The table's types


@dataclass(frozen=True)
class Param:
    """One kernel parameter. `kind` uses oxidec.signature.KernelParam's words:
    "scalar" (by value), "slice" (`&[T]`, read-only), "disjoint" (`DisjointSlice<T, ..>`, the outputs)
    or "value" (an enum or struct by value, in the host API's form: `("LeakyRelu", 0.1)`)."""

    name: str
    kind: str
    dtype: np.dtype

    def __post_init__(self) -> None:
        if self.kind not in ("scalar", "slice", "disjoint", "value"):
            raise ValueError(f"bad parameter kind {self.kind!r}")
        object.__setattr__(self, "dtype", np.dtype(self.dtype))


def scalar(name: str, dtype) -> Param:
    return Param(name, "scalar", dtype)


def slice_(name: str, dtype) -> Param:
    return Param(name, "slice", dtype)


def disjoint(name: str, dtype) -> Param:
    return Param(name, "disjoint", dtype)


def value(name: str) -> Param:
    return Param(name, "value", object)


@dataclass(frozen=True, eq=False)
class Tolerance:
    """An output element passes when |got - want| <= atol + rtol * |want|.

    `atol` may be an array: a per-element error bound (e.g. u * n * (|A| @ |B|) for a dot
    product), which is the honest tolerance for float sums whose rounding depends on fma
    contraction. With rtol = atol = 0 the comparison is exact (NaN equals NaN).
    `max_mismatch_fraction` allows that fraction of the elements to fail (no sample uses it
    today: mandelbrot is exact thanks to explicit mul_add)."""

    rtol: float = 0.0
    atol: float | np.ndarray = 0.0
    max_mismatch_fraction: float = 0.0
    why: str = ""

    @property
    def exact(self) -> bool:
        return self.rtol == 0.0 and np.isscalar(self.atol) and self.atol == 0.0

    def mismatches(self, got: np.ndarray, want: np.ndarray) -> np.ndarray:
        """A boolean array, True where `got` is not acceptable."""
        if self.exact:
            same = got == want
            if got.dtype.kind == "f":
                same |= np.isnan(got) & np.isnan(want)
            return ~same
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        ok = np.abs(g - w) <= self.atol + self.rtol * np.abs(w)  # False where got is NaN
        return ~ok

    def describe(self) -> str:
        if self.exact:
            text = "exact"
        else:
            atol = f"{self.atol:.3g}" if np.isscalar(self.atol) else f"per-element bound (max {np.max(self.atol):.3g})"
            text = f"rtol={self.rtol:.3g}, atol={atol}"
        if self.max_mismatch_fraction:
            text += f", up to {self.max_mismatch_fraction:.3%} of elements may differ"
        return text + (f" ({self.why})" if self.why else "")


EXACT = Tolerance()


@dataclass(frozen=True, eq=False)
class KernelCase:
    """One kernel of one sample, with everything needed to run it and check its outputs."""

    sample: str  # "saxpy": the file is samples/saxpy.rs
    kernel: str  # the #[kernel] fn's name
    params: tuple[Param, ...]  # in the Rust signature's order: the launch ABI
    make: Callable[[np.random.Generator, bool], dict[str, Any]]  # (rng, small) -> every parameter
    launch: Callable[[Inputs], tuple[Dim3, Dim3]]  # inputs -> (grid, block)
    reference: Callable[[Inputs], dict[str, np.ndarray]]  # inputs -> expected value of each output
    tolerance: Tolerance | Callable[[Inputs], Tolerance | dict[str, Tolerance]] = EXACT
    notes: str = ""
    #: the GPU adds in an order PTX leaves open (tensor-core `mma`): the simulator and the
    #: GPU then agree within the tolerance against the reference, not operation by operation
    unordered_sums: bool = False

    @property
    def id(self) -> str:
        return f"{self.sample}::{self.kernel}"

    @property
    def file(self) -> str:
        return f"{self.sample}.rs"

    @property
    def path(self) -> Path:
        return SAMPLES_DIR / self.file

    @property
    def outputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.kind == "disjoint")

    @property
    def output_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.outputs)

    def make_inputs(self, rng: np.random.Generator, small: bool = False) -> dict[str, Any]:
        """Every parameter in ABI order; outputs are sentinel-filled buffers (see the module doc)."""
        raw = self.make(rng, small)
        if set(raw) != {p.name for p in self.params}:
            raise ValueError(f"{self.id}: make_inputs gave {sorted(raw)}, want {[p.name for p in self.params]}")
        inputs: dict[str, Any] = {}
        for p in self.params:
            value = raw[p.name]
            if p.kind == "value":
                pass  # an enum/struct value: checked by the host API when it is encoded
            elif p.kind == "scalar":
                if not isinstance(value, np.generic) or value.dtype != p.dtype:
                    raise TypeError(f"{self.id}: scalar {p.name} must be np.{p.dtype}, got {value!r}")
            else:
                if not isinstance(value, np.ndarray) or value.dtype != p.dtype or value.ndim != 1:
                    raise TypeError(f"{self.id}: {p.name} must be a 1-D {p.dtype} array")
                value = np.ascontiguousarray(value)
            inputs[p.name] = value
        return inputs

    def fresh_outputs(self, inputs: Inputs) -> dict[str, np.ndarray]:
        """New sentinel-filled output buffers, the same shapes as those in `inputs`."""
        return {p.name: np.full(inputs[p.name].shape, sentinel(p.dtype), p.dtype) for p in self.outputs}

    def args(self, inputs: Inputs, outputs: Mapping[str, np.ndarray] | None = None) -> list[Any]:
        """The launch arguments in ABI order; outputs from `outputs` if given, else those in `inputs`."""
        outputs = outputs or {}
        return [outputs.get(p.name, inputs[p.name]) for p in self.params]

    def tolerances(self, inputs: Inputs) -> dict[str, Tolerance]:
        tol = self.tolerance(inputs) if callable(self.tolerance) else self.tolerance
        if isinstance(tol, Tolerance):
            return {name: tol for name in self.output_names}
        return dict(tol)

    def check(self, inputs: Inputs, outputs: Mapping[str, np.ndarray] | None = None) -> list[str]:
        """Compare the kernel's outputs with the reference; one line per failing output (empty: all good)."""
        outputs = outputs or {p.name: inputs[p.name] for p in self.outputs}
        want_all = self.reference(inputs)
        tols = self.tolerances(inputs)
        problems = []
        for p in self.outputs:
            got = np.asarray(outputs[p.name])
            want = np.asarray(want_all[p.name])
            if got.shape != want.shape:
                problems.append(f"{self.id}: {p.name} has shape {got.shape}, want {want.shape}")
                continue
            tol = tols[p.name]
            bad = tol.mismatches(got, want)
            nbad = int(np.count_nonzero(bad))
            allowed = int(tol.max_mismatch_fraction * got.size)
            if nbad > allowed:
                where = np.flatnonzero(bad)[:5]
                shown = ", ".join(f"[{i}] got {got[i]!r} want {want[i]!r}" for i in where)
                problems.append(
                    f"{self.id}: {p.name}: {nbad} of {got.size} elements wrong"
                    f" (allowed {allowed}; tolerance {tol.describe()}): {shown}"
                )
        return problems

    def assert_matches(self, inputs: Inputs, outputs: Mapping[str, np.ndarray] | None = None) -> None:
        problems = self.check(inputs, outputs)
        if problems:
            raise AssertionError("\n".join(problems))


# --------------------------------------------------------------------------------------------
# Helpers


@cache
def rust_const(file: str, name: str) -> int:
    """The value of `const NAME: usize = 123;` in samples/FILE, so this table cannot drift from the kernel."""
    text = (SAMPLES_DIR / file).read_text()
    m = re.search(rf"\bconst\s+{name}\s*:\s*\w+\s*=\s*([0-9_]+)\s*;", text)
    if not m:
        raise LookupError(f"no `const {name}` in {file}")
    return int(m.group(1).replace("_", ""))


def fma32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 fused multiply-add round32(a * b + c), vectorised (Rust's
    f32::mul_add, PTX fma.rn.f32). Plain float64 arithmetic is not enough: round64 then round32
    is a double rounding that is wrong when the float64 sum lands on a float32 halfway point.
    So: a * b is exact in float64 (24 + 24 significant bits); TwoSum gives the float64 sum s
    and its exact error e; s is then rounded to odd (if inexact and its last bit is even, step
    one ulp towards e), and rounding a round-to-odd value of >= 26 bits to 24 bits is correct."""
    a = np.asarray(a, np.float32).astype(np.float64)
    b = np.asarray(b, np.float32).astype(np.float64)
    c = np.asarray(c, np.float32).astype(np.float64)
    p = a * b
    s = p + c
    t = s - p
    e = (p - (s - t)) + (c - t)
    even = (s.view(np.uint64) & np.uint64(1)) == 0
    towards = np.where(e > 0, np.inf, -np.inf)
    s = np.where((e != 0) & even, np.nextafter(s, towards), s)
    return s.astype(np.float32)


def _size(rng: np.random.Generator, lo: int, hi: int, block: int) -> int:
    """A random size in [lo, hi) that is not a multiple of `block` (so the last block is partial)."""
    while True:
        n = int(rng.integers(lo, hi))
        if n % block:
            return n


def _n1d(rng: np.random.Generator, small: bool) -> int:
    return _size(rng, 300, 1_000, BLOCK_1D) if small else _size(rng, 100_001, 100_501, BLOCK_1D)


def _uniform_f32(rng: np.random.Generator, n: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return rng.uniform(lo, hi, n).astype(np.float32)


def _out(dtype, n: int) -> np.ndarray:
    dtype = np.dtype(dtype)
    return np.full(n, sentinel(dtype), dtype)


def sentinel(dtype: np.dtype):
    """The sentinel of a scalar dtype; for a struct dtype, a record of its fields' sentinels."""
    dtype = np.dtype(dtype)
    if dtype.fields is None:
        return SENTINELS[dtype]
    fields = []
    for name in dtype.names:
        ft = dtype.fields[name][0]
        base = ft.base if ft.subdtype else ft
        one = sentinel(base)
        fields.append(np.full(ft.shape, one, base) if ft.subdtype else one)
    return np.array(tuple(fields), dtype)[()]


def _grid_1d(n: int, block: int = BLOCK_1D) -> tuple[Dim3, Dim3]:
    return ((n + block - 1) // block, 1, 1), (block, 1, 1)


def _grid_2d(cols: int, rows: int) -> tuple[Dim3, Dim3]:
    bx, by, _ = BLOCK_2D
    return ((cols + bx - 1) // bx, (rows + by - 1) // by, 1), BLOCK_2D


def _launch_1d_over(name: str) -> Callable[[Inputs], tuple[Dim3, Dim3]]:
    """One thread per element of output `name`."""
    return lambda inp: _grid_1d(inp[name].size)


def _f64(x) -> np.ndarray:
    return np.asarray(x, np.float64)


def _fma_bound(mul_mag, add_mag) -> np.ndarray:
    """Error bound of fl(a * b + c) in float32 whether or not it is contracted: u(2|ab| + |c|)
    unfused, u|ab + c| fused; 2.02 u (|ab| + |c|) covers both with room for the final rounding."""
    return 2.02 * U32 * (_f64(mul_mag) + _f64(add_mag))


# --------------------------------------------------------------------------------------------
# vecadd.rs


def _vecadd_make(rng, small):
    n = _n1d(rng, small)
    return {"a": _uniform_f32(rng, n), "b": _uniform_f32(rng, n), "c": _out(np.float32, n)}


def _vecadd_ref(inp):
    return {"c": inp["a"] + inp["b"]}  # one float32 addition, correctly rounded on both sides


VECADD = KernelCase(
    "vecadd",
    "vecadd",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("c", np.float32)),
    _vecadd_make,
    _launch_1d_over("c"),
    _vecadd_ref,
    EXACT,
)

# --------------------------------------------------------------------------------------------
# saxpy.rs


def _saxpy_make(rng, small):
    n = _n1d(rng, small)
    a = np.float32(rng.uniform(0.5, 4.0) * rng.choice([-1.0, 1.0]))
    return {"a": a, "x": _uniform_f32(rng, n), "y": _uniform_f32(rng, n), "out": _out(np.float32, n)}


def _saxpy_ref(inp):
    return {"out": _f64(inp["a"]) * _f64(inp["x"]) + _f64(inp["y"])}


SAXPY = KernelCase(
    "saxpy",
    "saxpy",
    (scalar("a", np.float32), slice_("x", np.float32), slice_("y", np.float32), disjoint("out", np.float32)),
    _saxpy_make,
    _launch_1d_over("out"),
    _saxpy_ref,
    lambda inp: Tolerance(
        atol=_fma_bound(np.abs(_f64(inp["a"]) * _f64(inp["x"])), np.abs(inp["y"])),
        why="float64 reference; a*x+y rounds differently with and without fma contraction",
    ),
)

# --------------------------------------------------------------------------------------------
# axpy_generic.rs: one generic kernel `axpy<T>`, instantiated for f32 and f64 (PTX entries
# `axpy_f32`, `axpy_f64`)


def _axpy_generic_make(dtype):
    def make(rng, small):
        n = _n1d(rng, small)
        a = dtype(rng.uniform(0.5, 4.0) * rng.choice([-1.0, 1.0]))
        x = rng.uniform(-1.0, 1.0, n).astype(dtype)
        y = rng.uniform(-1.0, 1.0, n).astype(dtype)
        return {"a": a, "x": x, "y": y, "out": _out(dtype, n)}
    return make


def _axpy_generic_ref(inp):
    a, x, y = (np.asarray(inp[k], np.longdouble) for k in ("a", "x", "y"))
    return {"out": a * x + y}


def _axpy_generic_tolerance(u):
    # one rounding of a*x+y, or two unfused (2 u (|ax| + |y|)), plus rounding the longdouble
    # reference to float64 for the comparison (u/2 |ax + y|): 3 u (|ax| + |y|) covers all
    return lambda inp: Tolerance(
        atol=3.0 * u * (np.abs(_f64(inp["a"]) * _f64(inp["x"])) + np.abs(_f64(inp["y"]))),
        why="longdouble reference; a*x+y rounds differently with and without fma contraction",
    )


AXPY_GENERIC_F32 = KernelCase(
    "axpy_generic",
    "axpy_f32",
    (scalar("a", np.float32), slice_("x", np.float32), slice_("y", np.float32),
     disjoint("out", np.float32)),
    _axpy_generic_make(np.float32),
    _launch_1d_over("out"),
    _axpy_generic_ref,
    _axpy_generic_tolerance(U32),
    notes="the f32 instance of the generic kernel `axpy<T>`",
)

AXPY_GENERIC_F64 = KernelCase(
    "axpy_generic",
    "axpy_f64",
    (scalar("a", np.float64), slice_("x", np.float64), slice_("y", np.float64),
     disjoint("out", np.float64)),
    _axpy_generic_make(np.float64),
    _launch_1d_over("out"),
    _axpy_generic_ref,
    _axpy_generic_tolerance(2.0**-53),
    notes="the f64 instance of the generic kernel `axpy<T>`",
)

# --------------------------------------------------------------------------------------------
# scale_offset.rs


def _scale_offset_make(rng, small):
    n = _n1d(rng, small)
    return {
        "x": _uniform_f32(rng, n, -100.0, 100.0),
        "scale": np.float32(rng.uniform(0.1, 3.0)),
        "offset": np.float32(rng.uniform(-50.0, 50.0)),
        "out": _out(np.float32, n),
    }


def _scale_offset_ref(inp):
    return {"out": _f64(inp["x"]) * _f64(inp["scale"]) + _f64(inp["offset"])}


SCALE_OFFSET = KernelCase(
    "scale_offset",
    "scale_offset",
    (slice_("x", np.float32), scalar("scale", np.float32), scalar("offset", np.float32), disjoint("out", np.float32)),
    _scale_offset_make,
    _launch_1d_over("out"),
    _scale_offset_ref,
    lambda inp: Tolerance(
        atol=_fma_bound(np.abs(_f64(inp["x"]) * _f64(inp["scale"])), abs(float(inp["offset"]))),
        why="float64 reference; x*scale+offset may or may not be contracted",
    ),
)

# --------------------------------------------------------------------------------------------
# relu.rs: two kernels


def _relu_make(rng, small):
    n = _n1d(rng, small)
    return {"x": _uniform_f32(rng, n, -2.0, 2.0), "y": _out(np.float32, n)}


def _relu_ref(inp):
    x = inp["x"]
    return {"y": np.where(x > 0.0, x, np.float32(0.0)).astype(np.float32)}


def _clamp_make(rng, small):
    n = _n1d(rng, small)
    return {
        "x": _uniform_f32(rng, n, -2.0, 2.0),
        "lo": np.float32(rng.uniform(-1.5, -0.25)),
        "hi": np.float32(rng.uniform(0.25, 1.5)),
        "y": _out(np.float32, n),
    }


def _clamp_ref(inp):
    x, lo, hi = inp["x"], inp["lo"], inp["hi"]
    return {"y": np.where(x < lo, lo, np.where(x > hi, hi, x)).astype(np.float32)}


RELU = KernelCase(
    "relu",
    "relu",
    (slice_("x", np.float32), disjoint("y", np.float32)),
    _relu_make,
    _launch_1d_over("y"),
    _relu_ref,
    EXACT,
)

CLAMP = KernelCase(
    "relu",
    "clamp",
    (slice_("x", np.float32), scalar("lo", np.float32), scalar("hi", np.float32), disjoint("y", np.float32)),
    _clamp_make,
    _launch_1d_over("y"),
    _clamp_ref,
    EXACT,
)

# --------------------------------------------------------------------------------------------
# activation.rs: an enum parameter picks the formula


def _activation_make(rng, small):
    n = _n1d(rng, small)
    lo = float(np.float32(rng.uniform(-1.5, -0.25)))
    choices = ["Relu", ("LeakyRelu", float(np.float32(rng.uniform(0.01, 0.3)))),
               ("HardTanh", {"lo": lo, "hi": float(np.float32(rng.uniform(0.25, 1.5)))}),
               "HardSigmoid", ("Scaled", float(np.float32(rng.uniform(-3.0, 3.0))))]
    return {"x": _uniform_f32(rng, n, -4.0, 4.0), "act": choices[rng.integers(len(choices))],
            "y": _out(np.float32, n)}


def _activation_ref(inp):
    x, act = inp["x"], inp["act"]
    name = act if isinstance(act, str) else act[0]
    f = np.float32
    if name == "Relu":
        y = np.maximum(x, f(0.0))
    elif name == "LeakyRelu":
        y = np.where(x < 0, f(act[1]) * x, x)
    elif name == "HardTanh":
        y = np.clip(x, f(act[1]["lo"]), f(act[1]["hi"]))
    elif name == "HardSigmoid":  # x * (1/6) + 0.5 is contracted into one fma
        y = np.clip(fma32(x, f(1.0) / f(6.0), f(0.5)), f(0.0), f(1.0))
    else:
        y = f(act[1]) * x
    return {"y": y.astype(np.float32)}


ACTIVATION = KernelCase(
    "activation",
    "activate",
    (slice_("x", np.float32), value("act"), disjoint("y", np.float32)),
    _activation_make,
    _launch_1d_over("y"),
    _activation_ref,
    EXACT,
    notes="the variant is chosen at random on every run",
)

# --------------------------------------------------------------------------------------------
# safe_ratio.rs: Option, Result and `?` in helper functions


def _safe_ratio_make(rng, small):
    n = _n1d(rng, small)
    return {"a": _uniform_f32(rng, n, -1.0, 4.0), "b": _uniform_f32(rng, n, -2.0, 2.0),
            "out": _out(np.float32, n)}


def _safe_ratio_ref(inp):
    a, b = inp["a"], inp["b"]
    f = np.float32
    with np.errstate(all="ignore"):
        r = f(1.0) / np.sqrt(a)
        q = (r / b) * f(2.0)
    out = np.where(a > 0, np.where(np.abs(b) < f(0.125), f(-2.0), q), f(-1.0))
    return {"out": out.astype(np.float32)}


def _masked_scale_ref(inp):
    a, b = inp["a"], inp["b"]
    f = np.float32
    with np.errstate(all="ignore"):
        v = (f(1.0) / np.sqrt(a)) * b
    out = np.where((a > 0) & (v < f(4.0)), v, f(0.0))
    return {"out": out.astype(np.float32)}


SAFE_RATIO = KernelCase(
    "safe_ratio",
    "safe_ratio",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("out", np.float32)),
    _safe_ratio_make,
    _launch_1d_over("out"),
    _safe_ratio_ref,
    EXACT,
)

MASKED_SCALE = KernelCase(
    "safe_ratio",
    "masked_scale",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("out", np.float32)),
    _safe_ratio_make,
    _launch_1d_over("out"),
    _masked_scale_ref,
    EXACT,
)

# --------------------------------------------------------------------------------------------
# poly.rs


def _poly_make(rng, small):
    n = _n1d(rng, small)
    degree = int(rng.integers(4, 12))
    return {
        "coeffs": _uniform_f32(rng, degree + 1),
        "x": _uniform_f32(rng, n),
        "y": _out(np.float32, n),
    }


def _horner64(coeffs, x):
    acc = np.zeros_like(x)
    for c in coeffs:
        acc = acc * x + c
    return acc


def _poly_ref(inp):
    return {"y": _horner64(_f64(inp["coeffs"]), _f64(inp["x"]))}


def _poly_tol(inp):
    # Horner's rule in floating point: |p^(x) - p(x)| <= gamma_2d * sum |c_k| |x|^k, contracted or not.
    coeffs, x = _f64(inp["coeffs"]), _f64(inp["x"])
    d = coeffs.size - 1
    bound = 1.01 * (2 * d + 2) * U32 * _horner64(np.abs(coeffs), np.abs(x))
    return Tolerance(atol=bound, why="float64 reference; Horner error bound gamma_2d * p(|x|)")


POLY = KernelCase(
    "poly",
    "poly",
    (slice_("coeffs", np.float32), slice_("x", np.float32), disjoint("y", np.float32)),
    _poly_make,
    _launch_1d_over("y"),
    _poly_ref,
    _poly_tol,
)

# --------------------------------------------------------------------------------------------
# mandelbrot.rs


def _mandel_width() -> int:
    return rust_const("mandelbrot.rs", "W")


def _mandel_make(rng, small):
    w = _mandel_width()
    h = int(rng.integers(5, 12)) if small else _size(rng, 280, 330, BLOCK_2D[1])
    jitter = lambda: rng.uniform(-0.02, 0.02)  # noqa: E731
    return {
        "x0": np.float32(-2.2 + jitter()),
        "y0": np.float32(-1.2 + jitter()),
        "dx": np.float32(3.2 / w * rng.uniform(0.97, 1.03)),
        "dy": np.float32(2.4 / h * rng.uniform(0.97, 1.03)),
        "max_iter": np.uint32(rng.integers(24, 48) if small else rng.integers(200, 300)),
        "image": _out(np.uint32, w * h),
    }


def _mandel_launch(inp):
    w = _mandel_width()
    return _grid_2d(w, inp["image"].size // w)


def mandelbrot_counts(x0, y0, dx, dy, max_iter, width: int, height: int) -> np.ndarray:
    """The kernel's escape loop for every pixel at once, rounding exactly as the kernel does
    (each mul_add is one fma32, each other operation one float32 operation)."""
    f32 = np.float32
    cols = np.tile(np.arange(width, dtype=f32), height)
    rows = np.repeat(np.arange(height, dtype=f32), width)
    cx = fma32(cols, dx, x0)
    cy = fma32(rows, dy, y0)
    counts = np.zeros(width * height, np.uint32)
    live = np.arange(width * height)  # pixels still iterating
    x = np.zeros(live.size, f32)
    y = np.zeros(live.size, f32)
    for _ in range(int(max_iter)):  # `while n < max_iter && ...`
        inside = fma32(x, x, y * y) <= f32(4.0)
        live, x, y = live[inside], x[inside], y[inside]
        if live.size == 0:
            break
        xt = fma32(x, x, fma32(-y, y, cx[live]))
        y = fma32(f32(2.0) * x, y, cy[live])
        x = xt
        counts[live] += np.uint32(1)
    return counts


def _mandel_ref(inp):
    w = _mandel_width()
    h = inp["image"].size // w
    counts = mandelbrot_counts(inp["x0"], inp["y0"], inp["dx"], inp["dy"], inp["max_iter"], w, h)
    return {"image": counts}


MANDELBROT = KernelCase(
    "mandelbrot",
    "mandelbrot",
    (
        scalar("x0", np.float32),
        scalar("y0", np.float32),
        scalar("dx", np.float32),
        scalar("dy", np.float32),
        scalar("max_iter", np.uint32),
        disjoint("image", np.uint32),
    ),
    _mandel_make,
    _mandel_launch,
    _mandel_ref,
    Tolerance(why="explicit mul_add in the kernel, exact fma32 here: bit-for-bit equal counts"),
    notes="Exact only if mul_add is a true fma (fma.rn.f32) and plain f32 ops are not "
    "contracted into the mul_adds or flushed to zero; a simulator must round each mul_add once.",
)

# --------------------------------------------------------------------------------------------
# matrix_add.rs


def _matrix_cols() -> int:
    return rust_const("matrix_add.rs", "COLS")


def _matrix_add_make(rng, small):
    cols = _matrix_cols()
    rows = int(rng.integers(2, 6)) if small else _size(rng, 390, 420, BLOCK_2D[1])
    n = rows * cols
    return {"a": _uniform_f32(rng, n, -10.0, 10.0), "b": _uniform_f32(rng, n, -10.0, 10.0), "c": _out(np.float32, n)}


def _matrix_add_launch(inp):
    cols = _matrix_cols()
    return _grid_2d(cols, inp["c"].size // cols)


MATRIX_ADD = KernelCase(
    "matrix_add",
    "matrix_add",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("c", np.float32)),
    _matrix_add_make,
    _matrix_add_launch,
    lambda inp: {"c": inp["a"] + inp["b"]},
    EXACT,
)

# --------------------------------------------------------------------------------------------
# matmul_naive.rs


def _matmul_make(rng, small):
    n = _size(rng, 17, 40, BLOCK_2D[0]) if small else _size(rng, 500, 540, BLOCK_2D[0])
    return {
        "a": _uniform_f32(rng, n * n),
        "b": _uniform_f32(rng, n * n),
        "c": _out(np.float32, n * n),
        "n": np.uint64(n),
    }


def _matmul_launch(inp):
    n = int(inp["n"])
    return _grid_2d(n, n)


def _matmul_ref(inp):
    n = int(inp["n"])
    a = _f64(inp["a"]).reshape(n, n)
    b = _f64(inp["b"]).reshape(n, n)
    return {"c": (a @ b).ravel()}


def _matmul_tol(inp):
    # A float32 dot product of n terms in any order, fused or not: |err| <= gamma_n (|A| @ |B|).
    n = int(inp["n"])
    a = np.abs(_f64(inp["a"])).reshape(n, n)
    b = np.abs(_f64(inp["b"])).reshape(n, n)
    bound = 1.01 * (n + 1) * U32 * (a @ b).ravel()
    return Tolerance(atol=bound, why="float64 reference; dot-product error bound gamma_n * (|A| @ |B|)")


MATMUL_NAIVE = KernelCase(
    "matmul_naive",
    "matmul_naive",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("c", np.float32), scalar("n", np.uint64)),
    _matmul_make,
    _matmul_launch,
    _matmul_ref,
    _matmul_tol,
)

# --------------------------------------------------------------------------------------------
# int_hash.rs: two kernels. NumPy array arithmetic on uint32/uint64 wraps like Rust's release
# build; every constant is given its exact dtype so that no step is promoted to a wider type.

_U32 = np.uint32
_U64 = np.uint64


def _rotl32(x: np.ndarray, r: int) -> np.ndarray:
    return (x << _U32(r)) | (x >> _U32(32 - r))


def fmix32(h: np.ndarray) -> np.ndarray:
    h = np.asarray(h, _U32)
    h = h ^ (h >> _U32(16))
    h = h * _U32(0x85EB_CA6B)
    h = h ^ (h >> _U32(13))
    h = h * _U32(0xC2B2_AE35)
    return h ^ (h >> _U32(16))


def murmur3_u32(keys: np.ndarray, seed) -> np.ndarray:
    """MurmurHash3_x86_32 of each key's 4 little-endian bytes."""
    k = np.asarray(keys, _U32) * _U32(0xCC9E_2D51)
    k = _rotl32(k, 15)
    k = k * _U32(0x1B87_3593)
    h = _U32(seed) ^ k
    h = _rotl32(h, 13)
    h = h * _U32(5) + _U32(0xE654_6B64)
    return fmix32(h ^ _U32(4))


def splitmix64(seed, count: int) -> np.ndarray:
    """The first `count` outputs of SplitMix64 from state `seed`."""
    i = np.arange(1, count + 1, dtype=_U64)
    z = _U64(seed) + i * _U64(0x9E37_79B9_7F4A_7C15)
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58_476D_1CE4_E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D0_49BB_1331_11EB)
    return z ^ (z >> _U64(31))


def _murmur_make(rng, small):
    n = _n1d(rng, small)
    keys = rng.integers(0, 2**32, n, dtype=np.uint32)
    keys[rng.integers(0, n, 2)] = (0, 0xFFFF_FFFF)  # the edges, somewhere random
    return {"keys": keys, "seed": np.uint32(rng.integers(1, 2**32)), "hashes": _out(np.uint32, n)}


def _splitmix_make(rng, small):
    n = _n1d(rng, small)
    return {"seed": rng.integers(1, 2**64 - 1, dtype=np.uint64, endpoint=True), "out": _out(np.uint64, n)}


MURMUR3 = KernelCase(
    "int_hash",
    "murmur3",
    (slice_("keys", np.uint32), scalar("seed", np.uint32), disjoint("hashes", np.uint32)),
    _murmur_make,
    _launch_1d_over("hashes"),
    lambda inp: {"hashes": murmur3_u32(inp["keys"], inp["seed"])},
    EXACT,
)

SPLITMIX64 = KernelCase(
    "int_hash",
    "splitmix64",
    (scalar("seed", np.uint64), disjoint("out", np.uint64)),
    _splitmix_make,
    _launch_1d_over("out"),
    lambda inp: {"out": splitmix64(inp["seed"], inp["out"].size)},
    EXACT,
)

# --------------------------------------------------------------------------------------------
# bitmanip.rs: two kernels of `core` integer methods, written here with NumPy's wrapping
# uint32/uint64 arithmetic and bit tricks of its own (no loop over elements).

_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def _popcount(v: np.ndarray) -> np.ndarray:
    by = np.ascontiguousarray(v).view(np.uint8).reshape(v.shape + (v.dtype.itemsize,))
    return np.unpackbits(by, axis=-1).sum(axis=-1).astype(v.dtype)


def _bit_length(v: np.ndarray) -> np.ndarray:
    """The number of significant bits (0 for 0), by binary search on the shifts."""
    t = v.dtype.type
    n = np.zeros(v.shape, v.dtype)
    v = v.copy()
    s = v.dtype.itemsize * 4
    while s:
        big = v >= (t(1) << t(s))
        n[big] += t(s)
        v[big] >>= t(s)
        s //= 2
    return n + (v != 0)


def _rotl(v: np.ndarray, r) -> np.ndarray:
    t = v.dtype.type
    bits = v.dtype.itemsize * 8
    r = np.asarray(r).astype(v.dtype) % t(bits)
    return (v << r) | (v >> ((t(bits) - r) % t(bits)))


def _bit_fields_ref(inp):
    v = inp["x"].astype(np.uint32)
    rot = int(inp["rot"])
    bits = _bit_length(v)
    lz = np.uint32(32) - bits
    tz = np.where(v == 0, np.uint32(32), _bit_length(v & (~v + np.uint32(1))) - np.uint32(1))
    counts = _popcount(v) | (lz << np.uint32(6)) | (tz.astype(np.uint32) << np.uint32(12))
    rev = _REV8[v.view(np.uint8).reshape(-1, 4)][:, ::-1].copy().view(np.uint32).ravel()
    mixed = _rotl(v.byteswap(), rot) ^ _rotl(rev, 32 - (rot // 3) % 32)
    halves = np.minimum((v >> np.uint32(16)) + (v & np.uint32(0xFFFF)), np.uint32(0xFFFF))
    return {"out": counts ^ (mixed * np.uint32(0x9E37_79B9)) ^ (halves << np.uint32(18))}


def _mul_hi_u64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    m, s = np.uint64(0xFFFF_FFFF), np.uint64(32)
    al, ah, bl, bh = a & m, a >> s, b & m, b >> s
    mid = ((al * bl) >> s) + ((al * bh) & m) + ((ah * bl) & m)
    return ah * bh + ((al * bh) >> s) + ((ah * bl) >> s) + (mid >> s)


def _word_ops_ref(inp):
    a, b = inp["x"], inp["y"][: inp["x"].size]
    u = np.uint64
    gray = a ^ (a >> u(1))
    parity = _popcount(gray) & u(1)
    below = _bit_length(a - u(1))  # next power of two: 1 << bit_length(a - 1), a > 1
    pow2 = np.where(a <= u(1), u(1), np.where(below >= u(64), u(0), u(1) << (below % u(64))))
    prod = a * b
    overflow = (_mul_hi_u64(a, b) != 0).astype(np.uint64)
    lg = np.where(a == 0, u(0), _bit_length(a) - u(1))
    sat_add = np.where(a + b < a, u(2**64 - 1), a + b)
    sat_sub = np.where(a < b, u(0), a - b)
    sa, sb = a.view(np.int64), b.view(np.int64)
    dist = np.where(sa > sb, a - b, b - a)  # the difference of the signed values, mod 2^64
    out = (gray ^ (parity << u(63)) ^ pow2 ^ _rotl(prod, lg) ^ sat_add ^ sat_sub.byteswap()
           ^ _rotl(dist, u(64 - 7)) ^ overflow)
    return {"out": out}


def _bit_words(rng, n: int, dtype) -> np.ndarray:
    """Random words of random bit widths (small, sparse and full ones), with the edge words
    0, 1, MAX and the top bit alone somewhere random."""
    bits = np.dtype(dtype).itemsize * 8
    v = rng.integers(0, 2**bits, n, dtype=np.uint64).astype(dtype)
    width = rng.integers(0, bits + 1, n).astype(dtype)
    keep = np.where(width >= bits, np.array(-1).astype(dtype),
                    (np.array(1).astype(dtype) << (width % bits)) - np.array(1).astype(dtype))
    v &= keep
    v[rng.choice(n, 4, replace=False)] = np.array([0, 1, 2**bits - 1, 2 ** (bits - 1)],
                                                  dtype=np.uint64).astype(dtype)
    return v


def _bit_fields_make(rng, small):
    n = _n1d(rng, small)
    return {"x": _bit_words(rng, n, np.uint32), "rot": np.uint32(rng.integers(0, 200)),
            "out": _out(np.uint32, n)}


def _word_ops_make(rng, small):
    n = _n1d(rng, small)
    x = _bit_words(rng, n, np.uint64)
    y = _bit_words(rng, n + int(rng.integers(0, 3)), np.uint64)
    return {"x": x, "y": y, "out": _out(np.uint64, n)}


BIT_FIELDS = KernelCase(
    "bitmanip",
    "bit_fields",
    (slice_("x", np.uint32), scalar("rot", np.uint32), disjoint("out", np.uint32)),
    _bit_fields_make,
    _launch_1d_over("out"),
    _bit_fields_ref,
    EXACT,
    notes="count_ones, leading/trailing_zeros, swap_bytes, reverse_bits, rotates, "
          "saturating_add on u16: exact.",
)

WORD_OPS = KernelCase(
    "bitmanip",
    "word_ops",
    (slice_("x", np.uint64), slice_("y", np.uint64), disjoint("out", np.uint64)),
    _word_ops_make,
    _launch_1d_over("out"),
    _word_ops_ref,
    EXACT,
    notes="checked_next_power_of_two, overflowing_mul, ilog2, saturating add/sub, "
          "abs_diff on i64: exact.",
)

# --------------------------------------------------------------------------------------------
# count_positive.rs: two kernels

COUNT_PER_THREAD = 8  # count_positive launches about n / 8 threads, each striding over x


def _flags_make(rng, small):
    n = _n1d(rng, small)
    return {"x": _uniform_f32(rng, n), "flags": _out(np.uint32, n)}


def _count_threads(n: int) -> int:
    blocks = -(-n // (BLOCK_1D * COUNT_PER_THREAD))
    return blocks * BLOCK_1D


def _count_make(rng, small):
    n = _n1d(rng, small)
    return {"x": _uniform_f32(rng, n), "partial": _out(np.uint32, _count_threads(n))}


def _count_ref(inp):
    x = inp["x"]
    threads = inp["partial"].size
    owner = np.arange(x.size) % threads  # element j is counted by thread j mod T
    counts = np.bincount(owner, weights=(x > 0.0), minlength=threads)
    return {"partial": counts.astype(np.uint32)}


POSITIVE_FLAGS = KernelCase(
    "count_positive",
    "positive_flags",
    (slice_("x", np.float32), disjoint("flags", np.uint32)),
    _flags_make,
    _launch_1d_over("flags"),
    lambda inp: {"flags": (inp["x"] > 0.0).astype(np.uint32)},
    EXACT,
)

COUNT_POSITIVE = KernelCase(
    "count_positive",
    "count_positive",
    (slice_("x", np.float32), disjoint("partial", np.uint32)),
    _count_make,
    _launch_1d_over("partial"),  # one thread per partial count: the grid-stride loop covers x
    _count_ref,
    EXACT,
)

# iter_reduce.rs: two kernels, one written with an iterator chain and closures, one with an
# index loop; both sum a row's terms in order j = 0, 1, ... so their outputs are identical


def _iter_reduce_make(rng, small):
    rows = int(rng.integers(300, 700)) if small else int(rng.integers(40_000, 60_000))
    cols = int(rng.integers(1, 40)) if small else int(rng.integers(48, 80))
    return {"x": _uniform_f32(rng, rows * cols), "cols": np.uint32(cols),
            "out": _out(np.float32, rows)}


def _iter_reduce_weights(cols: int) -> np.ndarray:
    return 1.0 + (np.arange(cols) % 4) * 0.25


def _iter_reduce_ref(inp):
    cols = int(inp["cols"])
    x = _f64(inp["x"]).reshape(-1, cols)
    return {"out": x @ _iter_reduce_weights(cols)}


def _iter_reduce_tol(inp):
    cols = int(inp["cols"])
    mags = np.abs(_f64(inp["x"]).reshape(-1, cols)) @ _iter_reduce_weights(cols)
    return Tolerance(atol=1.01 * (cols + 1) * 2 * U32 * mags,
                     why="float64 reference; a float32 sum of `cols` weighted terms: "
                     "gamma_(2 cols) * sum|w x| per row")


def _iter_reduce_case(kernel: str) -> KernelCase:
    return KernelCase(
        "iter_reduce",
        kernel,
        (slice_("x", np.float32), scalar("cols", np.uint32), disjoint("out", np.float32)),
        _iter_reduce_make,
        _launch_1d_over("out"),
        _iter_reduce_ref,
        _iter_reduce_tol,
    )


ROW_SUMS_ITER = _iter_reduce_case("row_sums_iter")
ROW_SUMS_INDEX = _iter_reduce_case("row_sums_index")

# --------------------------------------------------------------------------------------------
# Block-level samples (shared memory, barriers, atomics, warp shuffles). Kernels that add into
# an accumulator with atomics (reduce, dot) get it zeroed in `make`, as the host would
# cudaMemset it; their float results depend on the order the atomics land in, so they are
# compared against float64 within the error bound of a sum in any order.

U64_ROUNDOFF = 2.0**-53


def _sum_bound(magnitudes, n: int, u: float = U32) -> float:
    """|fl(sum) - sum| <= gamma_(n-1) * sum|terms| for any order of the additions (and with
    fma: each product is then rounded once less)."""
    return 1.01 * (n + 1) * u * float(np.sum(magnitudes))


def _accumulator(dtype) -> np.ndarray:
    return np.zeros(1, dtype)


# reduce.rs


def _reduce_blocks(n: int) -> int:
    return min(64, max(2, n // 2048))  # fewer blocks than n / 256: the grid-stride loop runs


def _reduce_make(rng, small):
    n = _n1d(rng, small)
    # a positive mean keeps the sum far from the accumulator's initial 0
    return {"x": _uniform_f32(rng, n, -0.5, 1.0), "total": _accumulator(np.float32)}


REDUCE_SUM = KernelCase(
    "reduce",
    "reduce_sum",
    (slice_("x", np.float32), disjoint("total", np.float32)),
    _reduce_make,
    lambda inp: ((_reduce_blocks(inp["x"].size), 1, 1), (BLOCK_1D, 1, 1)),
    lambda inp: {"total": np.array([np.sum(_f64(inp["x"]))])},
    lambda inp: Tolerance(atol=_sum_bound(np.abs(_f64(inp["x"])), inp["x"].size),
                          why="float64 reference; a float32 sum in an order that depends on "
                          "the atomics: gamma_n * sum|x|"),
    notes="`total` is an accumulator: make() zeroes it (fresh_outputs() gives NaN, which the "
    "kernel then adds to).",
)

# dot.rs: two kernels


def _dot_make(dtype):
    def make(rng, small):
        n = _n1d(rng, small)
        a, b = (rng.uniform(-0.5, 1.0, n).astype(dtype) for _ in range(2))
        return {"a": a, "b": b, "result": _accumulator(dtype)}
    return make


def _dot_tol(u: float):
    def tol(inp):
        terms = np.abs(_f64(inp["a"]) * _f64(inp["b"]))
        return Tolerance(atol=_sum_bound(terms, inp["a"].size, u),
                         why="float64 reference; a dot product in an order that depends on "
                         "the atomics: gamma_n * sum|a*b|")
    return tol


def _dot_launch(inp):
    return (_reduce_blocks(inp["a"].size), 1, 1), (BLOCK_1D, 1, 1)


def _dot_ref(inp):
    return {"result": np.array([np.dot(_f64(inp["a"]), _f64(inp["b"]))])}


DOT = KernelCase(
    "dot",
    "dot",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("result", np.float32)),
    _dot_make(np.float32),
    _dot_launch,
    _dot_ref,
    _dot_tol(U32),
    notes="`result` is an accumulator: make() zeroes it.",
)

DOT_F64 = KernelCase(
    "dot",
    "dot_f64",
    (slice_("a", np.float64), slice_("b", np.float64), disjoint("result", np.float64)),
    _dot_make(np.float64),
    _dot_launch,
    _dot_ref,
    _dot_tol(U64_ROUNDOFF),
    notes="`result` is an accumulator: make() zeroes it. 64-bit shuffles move two halves.",
)

# histogram.rs


def _histogram_bins() -> int:
    return rust_const("histogram.rs", "BINS")


def _histogram_make(rng, small):
    n = _n1d(rng, small)
    blocks = int(rng.integers(2, 5)) if small else int(rng.integers(16, 40))
    data = rng.integers(0, 256, n, dtype=np.uint8)
    data[rng.integers(0, n, 64)] = 7  # one popular byte: many atomics on one shared cell
    return {"data": data, "partial": _out(np.uint32, blocks * _histogram_bins())}


def _histogram_ref(inp):
    bins = _histogram_bins()
    data, blocks = inp["data"], inp["partial"].size // bins
    owner = (np.arange(data.size) // bins) % blocks  # element i is counted by this block
    counts = np.bincount(owner * bins + data, minlength=blocks * bins)
    return {"partial": counts.astype(np.uint32)}


HISTOGRAM = KernelCase(
    "histogram",
    "histogram",
    (slice_("data", np.uint8), disjoint("partial", np.uint32)),
    _histogram_make,
    lambda inp: ((inp["partial"].size // _histogram_bins(), 1, 1), (_histogram_bins(), 1, 1)),
    _histogram_ref,
    EXACT,
)

# scan.rs


def _scan_block() -> int:
    return rust_const("scan.rs", "BLOCK")


def _scan_make(rng, small):
    n = _n1d(rng, small)
    return {"x": rng.integers(0, 2**32, n, dtype=np.uint32), "out": _out(np.uint32, n)}


def _scan_ref(inp):
    x, block = inp["x"], _scan_block()
    padded = np.zeros(-(-x.size // block) * block, np.uint32)
    padded[: x.size] = x
    sums = np.cumsum(padded.reshape(-1, block), axis=1, dtype=np.uint32)  # wraps, as the kernel
    return {"out": sums.ravel()[: x.size]}


BLOCK_SCAN = KernelCase(
    "scan",
    "block_scan",
    (slice_("x", np.uint32), disjoint("out", np.uint32)),
    _scan_make,
    lambda inp: _grid_1d(inp["out"].size, _scan_block()),
    _scan_ref,
    EXACT,
)

# matmul_tiled.rs


def _matmul_tiled_launch(inp):
    n, tile = int(inp["n"]), rust_const("matmul_tiled.rs", "TILE")
    blocks = (n + tile - 1) // tile
    return (blocks, blocks, 1), (tile, tile, 1)


def _matmul_tiled_make(rng, small):
    n = _size(rng, 33, 70, 32) if small else _size(rng, 500, 540, 32)
    return {
        "a": _uniform_f32(rng, n * n),
        "b": _uniform_f32(rng, n * n),
        "c": _out(np.float32, n * n),
        "n": np.uint64(n),
    }


MATMUL_TILED = KernelCase(
    "matmul_tiled",
    "matmul_tiled",
    (slice_("a", np.float32), slice_("b", np.float32), disjoint("c", np.float32), scalar("n", np.uint64)),
    _matmul_tiled_make,
    _matmul_tiled_launch,
    _matmul_ref,
    _matmul_tol,
)

# transpose.rs


def _transpose_make(rng, small):
    rows, cols = ((_size(rng, 20, 90, 32), _size(rng, 20, 90, 32)) if small
                  else (_size(rng, 900, 1100, 32), _size(rng, 700, 900, 32)))
    return {
        "a": _uniform_f32(rng, rows * cols, -100.0, 100.0),
        "out": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
    }


def _transpose_launch(inp):
    tile, block_rows = rust_const("transpose.rs", "TILE"), rust_const("transpose.rs", "BLOCK_ROWS")
    rows, cols = int(inp["rows"]), int(inp["cols"])
    return ((cols + tile - 1) // tile, (rows + tile - 1) // tile, 1), (tile, block_rows, 1)


TRANSPOSE = KernelCase(
    "transpose",
    "transpose",
    (slice_("a", np.float32), disjoint("out", np.float32), scalar("rows", np.uint64), scalar("cols", np.uint64)),
    _transpose_make,
    _transpose_launch,
    lambda inp: {"out": inp["a"].reshape(int(inp["rows"]), int(inp["cols"])).T.ravel()},
    EXACT,
)

# stencil.rs


def _stencil_make(rng, small):
    b = rust_const("stencil.rs", "B")
    rows, cols = ((_size(rng, 5, 40, b), _size(rng, 5, 40, b)) if small
                  else (_size(rng, 600, 700, b), _size(rng, 600, 700, b)))
    return {
        "u": _uniform_f32(rng, rows * cols, -10.0, 10.0),
        "out": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
        "c0": np.float32(rng.uniform(0.2, 0.6)),
        "c1": np.float32(rng.uniform(0.05, 0.2)),
    }


def _stencil_parts(inp):
    """(c0 * u, c1 * sum of the 4 neighbours, interior mask) in float64."""
    rows, cols = int(inp["rows"]), int(inp["cols"])
    u = _f64(inp["u"]).reshape(rows, cols)
    around = np.zeros_like(u)
    around[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
    abs_around = np.zeros_like(u)
    au = np.abs(u)
    abs_around[1:-1, 1:-1] = au[:-2, 1:-1] + au[2:, 1:-1] + au[1:-1, :-2] + au[1:-1, 2:]
    inside = np.zeros(u.shape, bool)
    inside[1:-1, 1:-1] = True
    return u, around, abs_around, inside


def _stencil_ref(inp):
    u, around, _, inside = _stencil_parts(inp)
    c0, c1 = float(inp["c0"]), float(inp["c1"])
    return {"out": np.where(inside, c0 * u + c1 * around, u).ravel()}


def _stencil_tol(inp):
    # three f32 additions, a multiply, and c0*u + that (fused or not): 6 roundings at most
    u, _, abs_around, inside = _stencil_parts(inp)
    c0, c1 = abs(float(inp["c0"])), abs(float(inp["c1"]))
    bound = np.where(inside, 6.06 * U32 * (c0 * np.abs(u) + c1 * abs_around), 0.0)
    return Tolerance(atol=bound.ravel(), why="float64 reference; 6 float32 roundings inside, "
                     "the boundary is copied exactly")


STENCIL5 = KernelCase(
    "stencil",
    "stencil5",
    (
        slice_("u", np.float32),
        disjoint("out", np.float32),
        scalar("rows", np.uint64),
        scalar("cols", np.uint64),
        scalar("c0", np.float32),
        scalar("c1", np.float32),
    ),
    _stencil_make,
    lambda inp: _grid_2d(int(inp["cols"]), int(inp["rows"])),
    _stencil_ref,
    _stencil_tol,
)

# softmax.rs


def _softmax_make(rng, small):
    rows, cols = ((int(rng.integers(3, 7)), int(rng.integers(40, 700))) if small
                  else (int(rng.integers(400, 600)), int(rng.integers(900, 1100))))
    return {
        "x": _uniform_f32(rng, rows * cols, -4.0, 4.0),
        "out": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
    }


def _softmax_ref(inp):
    rows, cols = int(inp["rows"]), int(inp["cols"])
    x = _f64(inp["x"]).reshape(rows, cols)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"out": (e / e.sum(axis=1, keepdims=True)).ravel()}


def _softmax_tol(inp):
    # exp within 2 ulp, x - max exact (Sterbenz) or one rounding, a sum of cols terms in a
    # block-dependent order, one division.
    cols = int(inp["cols"])
    return Tolerance(rtol=1.01 * (cols + 8) * U32, why="float64 reference; sum of exps in any "
                     "order, exp within 2 ulp")


SOFTMAX = KernelCase(
    "softmax",
    "softmax",
    (slice_("x", np.float32), disjoint("out", np.float32), scalar("rows", np.uint64), scalar("cols", np.uint64)),
    _softmax_make,
    lambda inp: ((int(inp["rows"]), 1, 1), (rust_const("softmax.rs", "BLOCK"), 1, 1)),
    _softmax_ref,
    _softmax_tol,
    notes="needs `f32::exp` from the device math library.",
)

# --------------------------------------------------------------------------------------------
# rmsnorm.rs


def _rmsnorm_make(rng, small):
    rows, cols = ((int(rng.integers(3, 7)), int(rng.integers(40, 700))) if small
                  else (int(rng.integers(300, 500)), int(rng.integers(900, 1100))))
    return {
        "x": _uniform_f32(rng, rows * cols, -3.0, 3.0),
        "w": _uniform_f32(rng, cols, 0.5, 1.5),
        "out": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
        "eps": np.float32(1e-5),
    }


def _rmsnorm_ref(inp):
    rows, cols = int(inp["rows"]), int(inp["cols"])
    x = _f64(inp["x"]).reshape(rows, cols)
    rms = np.sqrt((x * x).mean(axis=1, keepdims=True) + float(inp["eps"]))
    return {"out": (x / rms * _f64(inp["w"])).ravel()}


def _rmsnorm_tol(inp):
    # a sum of cols squares (fma) in a block-dependent order, one division by cols, a square
    # root (halves the relative error), a reciprocal and two products
    cols = int(inp["cols"])
    return Tolerance(rtol=1.01 * (cols + 16) * U32, why="float64 reference; sum of squares in "
                     "any order")


RMSNORM = KernelCase(
    "rmsnorm",
    "rmsnorm",
    (slice_("x", np.float32), slice_("w", np.float32), disjoint("out", np.float32),
     scalar("rows", np.uint64), scalar("cols", np.uint64), scalar("eps", np.float32)),
    _rmsnorm_make,
    lambda inp: ((int(inp["rows"]), 1, 1), (rust_const("rmsnorm.rs", "BLOCK"), 1, 1)),
    _rmsnorm_ref,
    _rmsnorm_tol,
)

# --------------------------------------------------------------------------------------------
# particles.rs

#: `kernels::Particle` in C layout: pos: Vec2, vel: Vec2, inv_mass: f32, bounces: u32
VEC2 = np.dtype([("x", np.float32), ("y", np.float32)], align=True)
PARTICLE = np.dtype([("pos", VEC2), ("vel", VEC2), ("inv_mass", np.float32), ("bounces", np.uint32)],
                    align=True)


def _particles_make(rng, small):
    n = _n1d(rng, small)
    p = np.zeros(n, PARTICLE)
    p["pos"]["x"] = _uniform_f32(rng, n, -10.0, 10.0)
    p["pos"]["y"] = _uniform_f32(rng, n, 0.0, 2.0)  # some end below the floor and bounce
    p["vel"]["x"] = _uniform_f32(rng, n, -3.0, 3.0)
    p["vel"]["y"] = _uniform_f32(rng, n, -8.0, 4.0)
    p["inv_mass"] = _uniform_f32(rng, n, 0.25, 2.0)
    p["bounces"] = rng.integers(0, 5, n, dtype=np.uint32)
    return {"particles": p, "fx": np.float32(rng.uniform(-1.0, 1.0)),
            "fy": np.float32(rng.uniform(-12.0, -8.0)), "dt": np.float32(rng.uniform(0.05, 0.3)),
            "out": _out(PARTICLE, n)}


def _particles_ref(inp):
    """Particle::step, one float32 operation (or one fma32 for a mul_add) at a time."""
    f32 = np.float32
    p = inp["particles"].copy()
    fx, fy, dt = f32(inp["fx"]), f32(inp["fy"]), f32(inp["dt"])
    k = (dt * p["inv_mass"]).astype(f32)                     # accelerate
    vx = fma32(k, fx, p["vel"]["x"]).astype(f32)
    vy = fma32(k, fy, p["vel"]["y"]).astype(f32)
    x = fma32(dt, vx, p["pos"]["x"]).astype(f32)              # drift
    y = fma32(dt, vy, p["pos"]["y"]).astype(f32)
    below = y < f32(0.0)                                      # bounce
    y = np.where(below, f32(0.0) - y, y).astype(f32)
    vy = np.where(below, (-vy * f32(0.75)).astype(f32), vy).astype(f32)
    p["pos"]["x"], p["pos"]["y"], p["vel"]["x"], p["vel"]["y"] = x, y, vx, vy
    p["bounces"] = p["bounces"] + below.astype(np.uint32)
    return {"out": p}


PARTICLES = KernelCase(
    "particles",
    "step_particles",
    (slice_("particles", PARTICLE), scalar("fx", np.float32), scalar("fy", np.float32),
     scalar("dt", np.float32), disjoint("out", PARTICLE)),
    _particles_make,
    _launch_1d_over("out"),
    _particles_ref,
    notes="an array of structs stepped through `impl` methods; exact (explicit mul_add).",
)

# --------------------------------------------------------------------------------------------
# warp_reduce_masked.rs: blocks of 80 threads (warps of 32, 32 and 16 lanes)

WARP_BLOCK = 80


def _warp_stats_make(rng, small):
    n = _size(rng, 300, 1_000, WARP_BLOCK) if small else _size(rng, 100_001, 100_501, WARP_BLOCK)
    return {"x": _uniform_f32(rng, n), "flags": rng.integers(0, 2**32, n, dtype=np.uint32),
            "sums": _poisoned(n, np.float32), "maxima": _poisoned(n, np.uint32),
            "same": _poisoned(n, np.uint32)}


def _poisoned(n: int, dtype) -> np.ndarray:
    return np.full(n, sentinel(np.dtype(dtype)), dtype)


def _warp_stats_ref(inp):
    """The kernel's down-tree in float32 (lane l adds lane l + k while l + k < live, for k =
    16, 8, 4, 2, 1), so the sums match bit for bit; threads past n count as 0."""
    n = inp["x"].size
    blocks = (n + WARP_BLOCK - 1) // WARP_BLOCK
    x = np.zeros(blocks * WARP_BLOCK, np.float32)
    x[:n] = inp["x"]
    f = np.zeros(blocks * WARP_BLOCK, np.uint32)
    f[:n] = inp["flags"]
    sums, maxima, same = (np.zeros(blocks * WARP_BLOCK, t) for t in (np.float32, np.uint32,
                                                                     np.uint32))
    for b in range(blocks):
        for w0 in range(0, WARP_BLOCK, 32):
            lo, live = b * WARP_BLOCK + w0, min(32, WARP_BLOCK - w0)
            v = x[lo:lo + live].copy()
            for k in (16, 8, 4, 2, 1):
                top = max(live - k, 0)
                v[:top] = v[:top] + v[k:k + top]
            sums[lo:lo + live] = v[0]
            maxima[lo:lo + live] = f[lo:lo + live].max()
            low = f[lo:lo + live] & 3
            same[lo:lo + live] = (low[:, None] == low[None, :]).sum(axis=1)
    return {"sums": sums[:n], "maxima": maxima[:n], "same": same[:n]}


WARP_STATS = KernelCase(
    "warp_reduce_masked",
    "warp_stats",
    (slice_("x", np.float32), slice_("flags", np.uint32), disjoint("sums", np.float32),
     disjoint("maxima", np.uint32), disjoint("same", np.uint32)),
    _warp_stats_make,
    lambda inp: _grid_1d(inp["x"].size, WARP_BLOCK),
    _warp_stats_ref,
    EXACT,
    notes="masked warp collectives in partial warps (redux.sync and match.any.sync: sm_80).",
)

# --------------------------------------------------------------------------------------------
# f16_gemv.rs: y = A x, f16 in, f32 accumulation, one warp per row

GEMV_BLOCK = 128  # four warps: four rows per block


def _gemv_make(rng, small):
    rows = _size(rng, 40, 90, GEMV_BLOCK // 32) if small else _size(rng, 4_001, 4_097, 4)
    cols = int(rng.integers(100, 300)) if small else int(rng.integers(1_500, 2_100))
    return {"a": rng.uniform(-1.0, 1.0, rows * cols).astype(np.float16),
            "x": rng.uniform(-1.0, 1.0, cols).astype(np.float16),
            "cols": np.uint64(cols),
            "y": _out(np.float32, rows), "y16": _out(np.float16, rows)}


def _gemv_ref(inp):
    """The kernel's order of operations in float32: lane l's fma chain over k = l, l + 32, ...
    (the halves widen exactly), then the butterfly 16, 8, 4, 2, 1; bit for bit."""
    cols = int(inp["cols"])
    rows = inp["y"].size
    a = inp["a"].astype(np.float32).reshape(rows, cols)
    x = inp["x"].astype(np.float32)
    pad = (-cols) % 32
    a = np.concatenate([a, np.zeros((rows, pad), np.float32)], axis=1).reshape(rows, -1, 32)
    xs = np.concatenate([x, np.zeros(pad, np.float32)]).reshape(-1, 32)
    acc = np.zeros((rows, 32), np.float32)
    for j in range(a.shape[1]):  # padding adds fma(0, 0, acc) = acc: the same chain
        acc = fma32(a[:, j, :], np.broadcast_to(xs[j], (rows, 32)), acc)
    lanes = np.arange(32)
    for m in (16, 8, 4, 2, 1):
        acc = acc + acc[:, lanes ^ m]
    y = acc[:, 0]
    return {"y": y, "y16": y.astype(np.float16)}


GEMV_F16 = KernelCase(
    "f16_gemv",
    "gemv_f16",
    (slice_("a", np.float16), slice_("x", np.float16), scalar("cols", np.uint64),
     disjoint("y", np.float32), disjoint("y16", np.float16)),
    _gemv_make,
    lambda inp: (((inp["y"].size + GEMV_BLOCK // 32 - 1) // (GEMV_BLOCK // 32), 1, 1),
                 (GEMV_BLOCK, 1, 1)),
    _gemv_ref,
    EXACT,
    notes="f16 loads, exact widening, f32 fma accumulation, warp butterfly; exact.",
)

# --------------------------------------------------------------------------------------------
# The table

# --------------------------------------------------------------------------------------------
# complex_mul.rs: interleaved (re, im) pairs, z = a * b + conj(a) * s through `impl Mul`/`Add`


def _complex_mul_make(rng, small):
    n = _n1d(rng, small)  # complex numbers; the output has 2n floats, one per thread
    return {"a": _uniform_f32(rng, 2 * n, -2.0, 2.0), "b": _uniform_f32(rng, 2 * n, -2.0, 2.0),
            "s": np.float32(rng.uniform(0.25, 2.0) * rng.choice([-1.0, 1.0])),
            "out": _out(np.float32, 2 * n)}


def _complex_terms(inp):
    """The three products of each output component, in float64 (re and im interleaved)."""
    a, b, s = _f64(inp["a"]), _f64(inp["b"]), _f64(inp["s"])
    ar, ai, br, bi = a[0::2], a[1::2], b[0::2], b[1::2]
    terms = np.empty((3, a.size))
    terms[:, 0::2] = (ar * br, -(ai * bi), ar * s)
    terms[:, 1::2] = (ar * bi, ai * br, -(ai * s))
    return terms


def _complex_mul_ref(inp):
    return {"out": _complex_terms(inp).sum(axis=0)}


COMPLEX_MUL = KernelCase(
    "complex_mul",
    "complex_mul",
    (slice_("a", np.float32), slice_("b", np.float32), scalar("s", np.float32), disjoint("out", np.float32)),
    _complex_mul_make,
    _launch_1d_over("out"),
    _complex_mul_ref,
    lambda inp: Tolerance(
        atol=3.03 * U32 * np.abs(_complex_terms(inp)).sum(axis=0),
        why="float64 reference; three rounded (or fused) products and two sums: "
            "3u(|t1| + |t2| + |t3|) bounds both",
    ),
)

# --------------------------------------------------------------------------------------------
# gemm_bf16_mma.rs: bf16 bits in, f32 out; blocks of 128 threads, 64 x 64 tiles of C


def _bf16_bits(v: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits (uint16), rounded to nearest even."""
    u = np.asarray(v, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def _bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def _gemm_bf16_make(rng, small):
    bm, bn, bk = (rust_const("gemm_bf16_mma.rs", c) for c in ("BM", "BN", "BK"))
    if small:
        m, n, k = bm * int(rng.integers(1, 3)), bn * int(rng.integers(1, 3)), bk * int(rng.integers(1, 4))
    else:
        m, n, k = bm * int(rng.integers(8, 17)), bn * int(rng.integers(8, 17)), bk * int(rng.integers(16, 33))
    return {
        "a": _bf16_bits(rng.uniform(-1.0, 1.0, m * k)),
        "b": _bf16_bits(rng.uniform(-1.0, 1.0, k * n)),
        "c": _out(np.float32, m * n),
        "m": np.uint32(m), "n": np.uint32(n), "k": np.uint32(k),
    }


def _gemm_bf16_launch(inp):
    bm, bn = rust_const("gemm_bf16_mma.rs", "BM"), rust_const("gemm_bf16_mma.rs", "BN")
    return (int(inp["n"]) // bn, int(inp["m"]) // bm, 1), (rust_const("gemm_bf16_mma.rs", "THREADS"), 1, 1)


def _gemm_bf16_operands(inp):
    m, n, k = int(inp["m"]), int(inp["n"]), int(inp["k"])
    return _bf16_values(inp["a"]).reshape(m, k), _bf16_values(inp["b"]).reshape(k, n)


def _gemm_bf16_ref(inp):
    a, b = _gemm_bf16_operands(inp)
    return {"c": (a @ b).ravel()}  # bf16 products are exact in float64


def _gemm_bf16_tol(inp):
    a, b = _gemm_bf16_operands(inp)
    k = int(inp["k"])
    return Tolerance(atol=2 * (k + 1) * U32 * (np.abs(a) @ np.abs(b)).ravel(),
                     why="float64 reference; f32 accumulation in the tensor cores' order: twice "
                         "the dot-product bound gamma_k * (|A| @ |B|)")


GEMM_BF16 = KernelCase(
    "gemm_bf16_mma",
    "gemm_bf16",
    (slice_("a", np.uint16), slice_("b", np.uint16), disjoint("c", np.float32),
     scalar("m", np.uint32), scalar("n", np.uint32), scalar("k", np.uint32)),
    _gemm_bf16_make,
    _gemm_bf16_launch,
    _gemm_bf16_ref,
    _gemm_bf16_tol,
    notes="mma.sync m16n8k16 bf16 -> f32, ldmatrix (.trans for B), cp.async double buffering "
          "(sm_80); sizes are multiples of the 64 x 64 x 32 tiles.",
    unordered_sums=True,
)

SAMPLES: dict[str, list[KernelCase]] = {
    "vecadd": [VECADD],
    "saxpy": [SAXPY],
    "axpy_generic": [AXPY_GENERIC_F32, AXPY_GENERIC_F64],
    "scale_offset": [SCALE_OFFSET],
    "relu": [RELU, CLAMP],
    "activation": [ACTIVATION],
    "safe_ratio": [SAFE_RATIO, MASKED_SCALE],
    "poly": [POLY],
    "mandelbrot": [MANDELBROT],
    "matrix_add": [MATRIX_ADD],
    "matmul_naive": [MATMUL_NAIVE],
    "int_hash": [MURMUR3, SPLITMIX64],
    "bitmanip": [BIT_FIELDS, WORD_OPS],
    "count_positive": [POSITIVE_FLAGS, COUNT_POSITIVE],
    "iter_reduce": [ROW_SUMS_ITER, ROW_SUMS_INDEX],
    "reduce": [REDUCE_SUM],
    "dot": [DOT, DOT_F64],
    "histogram": [HISTOGRAM],
    "scan": [BLOCK_SCAN],
    "matmul_tiled": [MATMUL_TILED],
    "transpose": [TRANSPOSE],
    "stencil": [STENCIL5],
    "softmax": [SOFTMAX],
    "rmsnorm": [RMSNORM],
    "particles": [PARTICLES],
    "warp_reduce_masked": [WARP_STATS],
    "complex_mul": [COMPLEX_MUL],
    "gemm_bf16_mma": [GEMM_BF16],
    "f16_gemv": [GEMV_F16],
}

ALL_CASES: list[KernelCase] = [case for cases in SAMPLES.values() for case in cases]


def register(more: dict[str, list[KernelCase]]) -> None:
    """Add the cases of another reference module to SAMPLES and ALL_CASES (in place: the
    names others imported see them). Idempotent."""
    SAMPLES.update(more)
    ALL_CASES[:] = [case for cases in SAMPLES.values() for case in cases]


# reference_infer.py uses the helpers above; whichever of the two is imported first, its
# cases end up registered (it registers itself when it finishes loading). A reload of this
# module (benchmarks/bench.py does one) reloads it too, so that its cases use the new classes.
_INFER = __name__.rpartition(".")[0] + ".reference_infer"
_reloading = getattr(sys.modules.get(_INFER), "INFER_SAMPLES", None) is not None
from . import reference_infer as _infer  # noqa: E402

if _reloading:
    _infer = importlib.reload(_infer)
if hasattr(_infer, "INFER_SAMPLES"):
    register(_infer.INFER_SAMPLES)

#: Samples that need a compiler feature still being built, by sample: (a piece of the
#: diagnostic oxidec gives while the feature is missing, why). Tests mark such a sample
#: xfail only while compiling it fails with exactly that diagnostic.
PENDING: dict[str, tuple[str, str]] = {
    "softmax": ("no method named `exp`", "`f32::exp` comes with the device math library "
                "(issue 4, math part); until it lands softmax.rs does not compile"),
}


#: Samples for a newer GPU than sm_80, by sample: the oldest target they build for. A build
#: for an older one fails with OX0013 (tests/codegen checks it); they run on the GPU only
#: (thread-block clusters, TMA, wgmma), with their references in samples/hopper_reference.py.
MIN_ARCH: dict[str, str] = {
    "cluster_reduce": "sm_90",
    "tma_copy": "sm_90",
}


def find_case(case_id: str) -> KernelCase:
    """Look a case up by "sample::kernel" (or by the sample name when it has one kernel)."""
    sample, _, kernel = case_id.partition("::")
    for c in SAMPLES[sample]:
        if not kernel or c.kernel == kernel:
            return c
    raise KeyError(case_id)
