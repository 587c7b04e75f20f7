"""oxidec against nvcc, side by side: every benchmark kernel compiled by both, loaded through
the same runtime, run on the same inputs, checked against NumPy, timed with CUDA events.

    PYTHONPATH=$PWD/.whl/lark-1.3.1-py3-none-any.whl:$PWD \\
        python3 benchmarks/bench.py --out $OUT/RESULTS.md        # on the GPU machine
    python3 benchmarks/bench.py --dry-run                        # here: no GPU

For each kernel in BENCHES (the ones whose sample, reference case and CUDA C twin exist):
1. `nvcc -ptx -O3 -arch=sm_90 benchmarks/cuda/NAME.cu` and `oxidec.api.compile_file(sample)`;
2. inputs drawn once at a size that fills the chip and exceeds the 50 MB L2 (`--quick`: small);
3. each implementation gets freshly poisoned outputs, runs once (checked against the NumPy
   reference of samples/reference.py, computed once), then is timed: CUDA events, `--warmup`
   untimed launches, median of `--repeat` timed ones (oxidec.runtime.timing.time_gpu);
4. one row per kernel: times, ratio nvcc/oxidec (>= 1.00: oxidec at least as fast), achieved
   GB/s (memory-bound kernels: the minimal traffic, each input read and each output written
   once) or GFLOP/s (matmuls: 2 n^3), and whether each output was correct.
Each kernel runs in its own worker process (a device fault poisons a CUDA context for the
rest of its process, and a hang must not take the others with it); a kernel that fails to
compile, faults or mismatches is reported in its row and the others go on. Then the cold-process
build times (`oxidec build` vs `nvcc -ptx`, benchmarks/build_time.py) and RESULTS.md.

`--dry-run` tests the plumbing without a GPU: both compilers, the nvcc PTX's `.entry`
parameter list against the hand-written signature, the nvcc arguments against that signature,
and the oxidec kernel on the CPU simulator at tiny sizes against the same checks.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime as _dt
import fnmatch
import functools
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CUDA_DIR = HERE / "cuda"
SAMPLES_DIR = ROOT / "samples"
for _p in (str(ROOT), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

ARCH = "sm_90"
NVCC_FLAGS = ("-ptx", "-O3", f"-arch={ARCH}")
MODES = ("full", "quick", "dry")

# nvcc's times for the same kernels in /work/shared/GPU.md (H200, median of 20): a sanity check
# of this harness's nvcc column, shown in the details
GPU_MD_BASELINE_MS = {"vecadd": 0.248, "saxpy": 0.246, "reduce": 0.121, "transpose": 0.161,
                      "matmul_naive": 25.9, "matmul_tiled": 15.6}

NOTES = [
    "Sizes: 2^26 elements for the 1-D kernels (256 MiB per f32 array), 8192^2 for transpose and "
    "stencil, 65536 x 1024 for softmax, 4096^3 for both matmuls, 2^26 bytes (64 MiB) for the "
    "histogram: every input exceeds the 50 MB L2.",
    "reduce and dot run on 8 blocks of 256 threads per SM (1056 on the H200) instead of the "
    "reference's at most 64 blocks, which would leave half the SMs idle; the histogram's grid "
    "is 1056 blocks too (its output has one 256-bin row per block).",
    "Outputs are poisoned (NaN, 0xDEADBEEF) before each implementation runs, except the "
    "accumulators of reduce and dot, which the kernels add into and which start at 0.",
    "Inference kernels (issue 13; references in samples/reference_infer.py): layernorm "
    "65536 x 1024; gelu and silu 2^26 elements; bias_gelu 16384 x 4096; softmax_4k 16384 x "
    "4096 and softmax_32k 2048 x 32768 (the softmax sample and twin at other shapes); conv3x3 "
    "8192^2; gemv_batched 4096 matrices of 128 x 128; dot_i8 2^26 words of 4 int8 each (exact, "
    "modulo 2^32).",
    "Checks: samples/reference.py's references and tolerances (applied in pieces for the "
    "large elementwise and row kernels); the matmuls on 256 sampled rows against float64 "
    "with the gamma_n bound; reduce and dot against float64 with the error bound of their "
    "summation depth (positive inputs, so that a lost block shows).",
]

Inputs = dict[str, Any]
Dim3 = tuple[int, int, int]


# --------------------------------------------------------------------------------------------
# Hand-written signatures of the nvcc kernels (raw pointers and scalars, in C order)


def nv_sig(name: str, *params: tuple[str, str, str, bool]):
    """KernelSignature from (name, "ptr" | "scalar", element type name, writable) tuples."""
    from oxidec import types as T
    from oxidec.signature import KernelParam, KernelSignature
    out = []
    for pname, kind, elem, writable in params:
        ty = T.SCALARS[elem]
        if kind == "ptr":
            out.append(KernelParam(pname, "ptr", T.PtrTy(ty, writable), ty, writable))
        else:
            out.append(KernelParam(pname, "scalar", ty, ty, False))
    return KernelSignature(name, tuple(out), None)


def ptr_in(name: str, elem: str = "f32"):
    return (name, "ptr", elem, False)


def ptr_out(name: str, elem: str = "f32"):
    return (name, "ptr", elem, True)


def val(name: str, elem: str):
    return (name, "scalar", elem, False)


# --------------------------------------------------------------------------------------------
# Checking outputs against a reference computed once per input set


class Expectation:
    """What the outputs must be; `problems(outputs)` lists what is wrong (empty: correct)."""

    def problems(self, outputs: Mapping[str, np.ndarray]) -> list[str]:
        raise NotImplementedError


class CaseExpectation(Expectation):
    """KernelCase.check's comparison, with the reference and the tolerances computed once."""

    def __init__(self, case, inputs: Inputs, grid: Dim3, block: Dim3):
        self.case = case
        self.want = case.reference(inputs)
        self.tols = case.tolerances(inputs)

    def problems(self, outputs: Mapping[str, np.ndarray]) -> list[str]:
        out = []
        for p in self.case.outputs:
            out += compare(p.name, np.asarray(outputs[p.name]), np.asarray(self.want[p.name]),
                           self.tols[p.name])
        return out


CHUNK = 1 << 21  # pieces of 16 MiB in float64: under glibc's mmap threshold, no page faults


def count_bad(got: np.ndarray, want: np.ndarray, tol) -> tuple[int, list[int]]:
    """How many elements of `got` (flat) are not within `tol` of `want`, and the first few."""
    per_element = not np.isscalar(tol.atol)
    atol = np.asarray(tol.atol).reshape(-1) if per_element else None
    nbad, where = 0, []
    for lo in range(0, got.size, CHUNK):
        hi = min(lo + CHUNK, got.size)
        t = dataclasses.replace(tol, atol=atol[lo:hi]) if per_element else tol
        bad = t.mismatches(got[lo:hi], want[lo:hi])
        count = int(np.count_nonzero(bad))
        if count:
            nbad += count
            if len(where) < 4:
                where += [lo + int(i) for i in np.flatnonzero(bad)[:4 - len(where)]]
    return nbad, where


def compare(name: str, got: np.ndarray, want: np.ndarray, tol, index=None) -> list[str]:
    """One line if `got` is not within `tol` of `want` (`index`: the flat positions compared)."""
    if got.shape != want.shape:
        return [f"{name} has shape {got.shape}, want {want.shape}"]
    got, want = got.reshape(-1), want.reshape(-1)
    nbad, where = count_bad(got, want, tol)
    if nbad <= int(tol.max_mismatch_fraction * got.size):
        return []
    pos = (lambda i: int(index[i])) if index is not None else int
    shown = ", ".join(f"[{pos(i)}] got {got[i].item()!r} want {want[i].item()!r}" for i in where)
    return [f"{name}: {nbad} of {got.size} checked elements wrong "
            f"(tolerance {tol.describe()}): {shown}"]


class PieceExpectation(Expectation):
    """The case's own reference and tolerance, applied one piece of the problem at a time: at
    2^26 elements their float64 temporaries cost gigabytes and tens of seconds. `pieces(case,
    inputs)` yields (sub-inputs, {output: (slice of the full output, slice of the piece's)})."""

    def __init__(self, case, inputs: Inputs, grid: Dim3, block: Dim3, pieces=None):
        self.case = case
        self.parts = []  # (output, slice of the full output, want, tolerance)
        for sub, where in pieces(case, inputs):
            want, tols = case.reference(sub), case.tolerances(sub)
            for name, (full, part) in where.items():
                tol = tols[name]
                if not np.isscalar(tol.atol):
                    tol = dataclasses.replace(tol, atol=np.asarray(tol.atol).reshape(-1)[part])
                self.parts.append((name, full, np.asarray(want[name]).reshape(-1)[part], tol))

    def problems(self, outputs):
        out = []
        for name in self.case.output_names:
            got = np.asarray(outputs[name]).reshape(-1)
            nbad, shown, tol = 0, [], None
            for pname, full, want, tol_ in self.parts:
                if pname != name:
                    continue
                tol = tol_
                count, where = count_bad(got[full], want, tol_)
                nbad += count
                shown += [f"[{full.start + i}] got {got[full.start + i].item()!r} want "
                          f"{want[i].item()!r}" for i in where][:4 - len(shown)]
            if nbad:
                out.append(f"{name}: {nbad} of {got.size} elements wrong (tolerance "
                           f"{tol.describe()}): {', '.join(shown)}")
        return out


def elementwise_pieces(case, inputs):
    n = max(inputs[p.name].size for p in case.outputs)
    for lo in range(0, n, CHUNK):
        part = slice(lo, min(lo + CHUNK, n))
        sub = {p.name: inputs[p.name] if p.kind == "scalar" else inputs[p.name][part]
               for p in case.params}
        yield sub, {name: (part, slice(None)) for name in case.output_names}


def row_pieces(halo: int, whole: tuple[str, ...] = ()):
    """Bands of rows of a rows x cols problem (the first two scalars), each with `halo` rows
    of context on either side that are computed and dropped (the stencil's neighbours);
    the slices named in `whole` (rmsnorm's weights, one per column) go to every band whole."""
    def pieces(case, inputs):
        rows, cols = _rows_cols(case, inputs)
        rows_p, _ = _params(case, "scalar")[:2]
        band = max(1, CHUNK // cols)
        for lo in range(0, rows, band):
            hi = min(lo + band, rows)
            a, b = max(lo - halo, 0), min(hi + halo, rows)
            sub = {}
            for p in case.params:
                if p is rows_p:
                    sub[p.name] = p.dtype.type(b - a)
                elif p.kind == "scalar" or p.name in whole:
                    sub[p.name] = inputs[p.name]
                else:
                    sub[p.name] = inputs[p.name][a * cols:b * cols]
            yield sub, {name: (slice(lo * cols, hi * cols),
                               slice((lo - a) * cols, (hi - a) * cols))
                        for name in case.output_names}
    return pieces


# --------------------------------------------------------------------------------------------
# The benchmarks


@dataclass
class Bench:
    name: str  # also the twin's file: benchmarks/cuda/NAME.cu
    samples: tuple[str, ...]  # fnmatch patterns for the sample's stem (samples/STEM.rs)
    kernels: tuple[str, ...]  # fnmatch patterns for the oxidec kernel's name
    nv_kernel: str  # the extern "C" kernel in NAME.cu
    nv_params: Callable[[], Any]  # -> KernelSignature of the nvcc kernel
    nv_args: Callable[[Any, Inputs, Mapping[str, np.ndarray]], list]  # (case, inputs, outs)
    make: Callable[[Any, int, np.random.Generator], Inputs]  # (case, size, rng) -> inputs
    sizes: dict[str, int]  # mode -> size parameter given to `make`
    describe: Callable[[Inputs], str]  # the size column
    work: Callable[[Inputs], tuple[float, str]]  # (bytes or flops, "GB/s" | "GFLOP/s")
    expect: Callable[[Any, Inputs, Dim3, Dim3], Expectation] = CaseExpectation
    fresh_outputs: Callable[[Any, Inputs], dict] | None = None  # default: case.fresh_outputs
    # (case, inputs, SMs or None in a dry run) -> (grid, block); default: the case's launch
    launch: Callable[[Any, Inputs, int | None], tuple[Dim3, Dim3]] | None = None
    note: str = ""
    twin: str = ""  # the twin's file stem when it is not `name` (one kernel at two sizes)

    @property
    def cu(self) -> Path:
        return CUDA_DIR / f"{self.twin or self.name}.cu"


def _params(case, kind: str | None = None):
    return [p for p in case.params if kind is None or p.kind == kind]


def _poison(dtype, n: int) -> np.ndarray:
    from samples.reference import SENTINELS
    dtype = np.dtype(dtype)
    return np.full(n, SENTINELS[dtype], dtype)


def _uniform(rng: np.random.Generator, n: int, lo=-1.0, hi=1.0) -> np.ndarray:
    # float32 draws, scaled in place: no float64 detour and no temporaries at 2^26 values
    x = rng.random(n, dtype=np.float32)
    x *= np.float32(hi - lo)
    x += np.float32(lo)
    return x


def _by_kind(case, slices: list[np.ndarray], outputs: list[np.ndarray],
             scalars: list[Any] = ()) -> Inputs:
    """The case's parameters filled in order: slices, outputs and scalars each from their list."""
    it = {"slice": iter(slices), "disjoint": iter(outputs), "scalar": iter(scalars)}
    inputs = {}
    for p in case.params:
        v = next(it[p.kind])
        if p.kind == "scalar":
            v = p.dtype.type(v)
        elif v.dtype != p.dtype:
            raise TypeError(f"{case.id}: {p.name} must be {p.dtype}, generator made {v.dtype}")
        inputs[p.name] = v
    return inputs


def _arrays(case, inputs: Inputs, outs: Mapping[str, np.ndarray], kinds=("slice", "disjoint")):
    return [outs.get(p.name, inputs[p.name]) for p in case.params if p.kind in kinds]


def _gbs(nbytes: float) -> tuple[float, str]:
    return nbytes, "GB/s"


# elementwise ---------------------------------------------------------------------------------

def make_vecadd(case, n, rng):
    return _by_kind(case, [_uniform(rng, n), _uniform(rng, n)], [_poison(np.float32, n)])


def args_vecadd(case, inputs, outs):
    a, b, c = _arrays(case, inputs, outs)
    return [a, b, c, np.int32(c.size)]


def make_saxpy(case, n, rng):
    a = np.float32(rng.uniform(0.5, 4.0))
    return _by_kind(case, [_uniform(rng, n), _uniform(rng, n)], [_poison(np.float32, n)], [a])


def args_saxpy(case, inputs, outs):
    (a,) = [inputs[p.name] for p in _params(case, "scalar")]
    x, y, out = _arrays(case, inputs, outs)
    return [a, x, y, out, np.int32(out.size)]


def _max_size(inputs: Inputs) -> int:
    return max(v.size for v in inputs.values() if isinstance(v, np.ndarray))


def _n_elems(inputs: Inputs) -> str:
    return _pow2(_max_size(inputs))


def _pow2(n: int) -> str:
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 and n > 1 else str(n)


# matmuls -------------------------------------------------------------------------------------

def make_matmul(case, n, rng):
    return _by_kind(case, [_uniform(rng, n * n), _uniform(rng, n * n)],
                    [_poison(np.float32, n * n)], [n])


def _matmul_n(inputs: Inputs) -> int:
    return int(next(v for v in inputs.values() if isinstance(v, np.generic)))


def args_matmul(case, inputs, outs):
    a, b, c = _arrays(case, inputs, outs)
    return [a, b, c, np.int32(_matmul_n(inputs))]


class MatmulExpectation(Expectation):
    """C = A B checked on a sample of rows (all of them for small n): float64 reference and the
    dot-product error bound gamma_n (|A| |B|) that holds for any summation order, fused or not."""

    ROWS = 256

    def __init__(self, case, inputs: Inputs, grid: Dim3, block: Dim3):
        from samples.reference import U32, Tolerance
        n = _matmul_n(inputs)
        a_name, b_name = (p.name for p in _params(case, "slice"))
        (self.c_name,) = case.output_names
        a = inputs[a_name].reshape(n, n).astype(np.float64)
        b = inputs[b_name].reshape(n, n).astype(np.float64)
        rows = np.arange(n) if n <= self.ROWS else np.unique(np.concatenate(
            [np.random.default_rng(n).choice(n, self.ROWS - 2, replace=False), [0, n - 1]]))
        self.n, self.rows = n, rows
        self.want = a[rows] @ b
        bound = 1.01 * (n + 1) * U32 * (np.abs(a[rows]) @ np.abs(b))
        self.tol = Tolerance(atol=bound.ravel(), why=f"gamma_n bound; {rows.size} of {n} rows")

    def problems(self, outputs):
        c = np.asarray(outputs[self.c_name]).reshape(self.n, self.n)[self.rows]
        index = (self.rows[:, None] * self.n + np.arange(self.n)[None, :]).ravel()
        return compare(self.c_name, c.ravel(), self.want.ravel(), self.tol, index)


def _matmul_desc(inputs):
    n = _matmul_n(inputs)
    return f"{n}^3"


def _matmul_work(inputs):
    n = _matmul_n(inputs)
    return 2.0 * n ** 3, "GFLOP/s"


# reductions (the output must start at zero: the kernels add into it) -----------------------

def zeroed_outputs(case, inputs):
    return {p.name: np.zeros(inputs[p.name].shape, p.dtype) for p in case.outputs}


H200_SMS = 132  # the histogram's grid is fixed by its output's size, drawn before the GPU is asked
BLOCKS_PER_SM = 8  # 256-thread blocks: 2048 threads, the H200's (sm_90's) maximum per SM


def full_chip_launch(case, inputs, sms):
    """The reduction samples take any grid (grid-stride loops); the reference's launch is at
    most 64 blocks, which leaves half the H200's 132 SMs idle. On the GPU: 8 blocks of 256 per
    SM, the whole chip; in a dry run, the reference's grid."""
    grid, block = case.launch(inputs)
    if sms is None:
        return grid, block
    return (sms * BLOCKS_PER_SM, 1, 1), block


def make_reduce(case, n, rng):
    # positive values: the sum is then as large as the sum of magnitudes, and the error bound
    # below is tight enough to catch a lost block (the reference's gamma_n bound is not, at 2^26)
    return _by_kind(case, [_uniform(rng, n, 0.0, 1.0)], [np.zeros(1, np.float32)])


def args_reduce(case, inputs, outs):
    (x,) = [inputs[p.name] for p in _params(case, "slice")]
    (total,) = _arrays(case, inputs, outs, ("disjoint",))
    return [x, total, np.int32(x.size)]


def make_dot(case, n, rng):
    return _by_kind(case, [_uniform(rng, n, 0.0, 1.0), _uniform(rng, n, 0.0, 1.0)],
                    [np.zeros(1, np.float32)])


def args_dot(case, inputs, outs):
    a, b = [inputs[p.name] for p in _params(case, "slice")]
    (result,) = _arrays(case, inputs, outs, ("disjoint",))
    return [a, b, result, np.int32(a.size)]


class SumExpectation(Expectation):
    """A float32 sum of n terms by the grid: each thread adds ceil(n / threads) terms in
    sequence, the block combines its threads in at most log2(block) + 3 more steps, and the
    blocks' (or warps') atomics add up to `grid * warps` more in sequence. Every term goes
    through at most d = that many roundings, so |got - sum| <= 1.01 d u sum|terms|
    (Higham's bound for any summation tree of depth d)."""

    def __init__(self, case, inputs: Inputs, grid: Dim3, block: Dim3, per_warp: bool = False):
        from samples.reference import U32, Tolerance
        slices = [inputs[p.name].astype(np.float64) for p in _params(case, "slice")]
        terms = slices[0] if len(slices) == 1 else slices[0] * slices[1]
        (self.out,) = case.output_names
        threads = grid[0] * block[0]
        adders = grid[0] * (max(1, block[0] // 32) if per_warp else 1)  # atomics in sequence
        depth = -(-terms.size // threads) + int(np.log2(block[0])) + 3 + adders
        self.want = np.array([terms.sum()])
        self.tol = Tolerance(atol=1.01 * depth * U32 * float(np.abs(terms).sum()),
                             why=f"float64 reference; summation depth {depth}")

    def problems(self, outputs):
        return compare(self.out, np.asarray(outputs[self.out], np.float64), self.want, self.tol)


# histogram, scan -----------------------------------------------------------------------------

HIST_BINS = 256


def hist_blocks(n: int) -> int:
    """Blocks of 256 threads for the histogram: 8 per SM on the H200's 132 SMs (full
    occupancy), fewer for small inputs (the simulator)."""
    return max(1, min(H200_SMS * BLOCKS_PER_SM, -(-n // (HIST_BINS * 64))))


def make_histogram(case, n, rng):
    data = rng.integers(0, 256, n, dtype=np.uint8)
    return _by_kind(case, [data], [_poison(np.uint32, HIST_BINS * hist_blocks(n))])


def args_histogram(case, inputs, outs):
    (data,) = [inputs[p.name] for p in _params(case, "slice")]
    (partial,) = _arrays(case, inputs, outs, ("disjoint",))
    return [data, partial, np.int32(data.size)]


def _hist_work(inputs):
    arrays = [v for v in inputs.values() if isinstance(v, np.ndarray)]
    return _gbs(float(sum(a.nbytes for a in arrays)))  # the bytes read + the rows written


def make_scan(case, n, rng):
    x = rng.integers(0, 1 << 32, n, dtype=np.uint32)  # large values: the sums wrap
    return _by_kind(case, [x], [_poison(np.uint32, n)])


def args_scan(case, inputs, outs):
    (x,) = [inputs[p.name] for p in _params(case, "slice")]
    (out,) = _arrays(case, inputs, outs, ("disjoint",))
    return [x, out, np.int32(x.size)]


# 2-D kernels over a rows x cols matrix: transpose, softmax, stencil ---------------------------

def _shape(size) -> tuple[int, int]:
    return (size, size) if isinstance(size, int) else tuple(size)


def _rows_cols(case, inputs) -> tuple[int, int]:
    rows, cols = (int(inputs[p.name]) for p in _params(case, "scalar")[:2])
    return rows, cols


def _matrix_desc(inputs) -> str:
    rows, cols = (int(v) for v in inputs.values() if isinstance(v, np.integer))
    return f"{rows}^2" if rows == cols else f"{rows}x{cols}"


def make_transpose(case, size, rng):
    rows, cols = _shape(size)
    return _by_kind(case, [_uniform(rng, rows * cols)], [_poison(np.float32, rows * cols)],
                    [rows, cols])


def args_matrix(case, inputs, outs):
    """(input, output, rows, cols, further scalars...) with the sizes as C ints."""
    (x,) = [inputs[p.name] for p in _params(case, "slice")]
    (out,) = _arrays(case, inputs, outs, ("disjoint",))
    scalars = [inputs[p.name] for p in _params(case, "scalar")]
    return [x, out, np.int32(scalars[0]), np.int32(scalars[1]), *scalars[2:]]


def make_softmax(case, size, rng):
    rows, cols = _shape(size)
    x = rng.standard_normal(rows * cols, dtype=np.float32)
    return _by_kind(case, [x * np.float32(4.0)], [_poison(np.float32, rows * cols)],
                    [rows, cols])


def make_stencil(case, size, rng):
    rows, cols = _shape(size)
    c0 = np.float32(rng.uniform(0.4, 0.6))
    c1 = np.float32((1.0 - c0) / 4.0)
    return _by_kind(case, [_uniform(rng, rows * cols)], [_poison(np.float32, rows * cols)],
                    [rows, cols, c0, c1])


def make_rmsnorm(case, size, rng):
    rows, cols = _shape(size)
    x = rng.standard_normal(rows * cols, dtype=np.float32)
    w = rng.uniform(0.5, 1.5, cols).astype(np.float32)
    return _by_kind(case, [x, w], [_poison(np.float32, rows * cols)],
                    [rows, cols, np.float32(1e-5)])


def args_rmsnorm(case, inputs, outs):
    """(x, w, out, rows, cols, eps) with the sizes as C ints."""
    x, w = (inputs[p.name] for p in _params(case, "slice"))
    (out,) = _arrays(case, inputs, outs, ("disjoint",))
    rows, cols, eps = (inputs[p.name] for p in _params(case, "scalar"))
    return [x, w, out, np.int32(rows), np.int32(cols), eps]


def _matrix_bytes(inputs):
    return _gbs(8.0 * _max_size(inputs))  # one read and one write of each element


# inference kernels (samples/reference_infer.py) -----------------------------------------------

def make_layernorm(case, size, rng):
    rows, cols = _shape(size)
    x = rng.standard_normal(rows * cols, dtype=np.float32)
    x += np.float32(1.0)  # a mean away from 0
    gamma = rng.uniform(0.5, 1.5, cols).astype(np.float32)
    beta = rng.uniform(-1.0, 1.0, cols).astype(np.float32)
    return _by_kind(case, [x, gamma, beta], [_poison(np.float32, rows * cols)],
                    [rows, cols, np.float32(1e-5)])


def args_layernorm(case, inputs, outs):
    """(x, gamma, beta, out, rows, cols, eps) with the sizes as C ints."""
    x, gamma, beta = (inputs[p.name] for p in _params(case, "slice"))
    (out,) = _arrays(case, inputs, outs, ("disjoint",))
    rows, cols, eps = (inputs[p.name] for p in _params(case, "scalar"))
    return [x, gamma, beta, out, np.int32(rows), np.int32(cols), eps]


def make_activation(case, n, rng):
    return _by_kind(case, [_uniform(rng, n, -6.0, 6.0)], [_poison(np.float32, n)])


def args_elementwise(case, inputs, outs):
    """(input slices..., output, n) with n as a C int."""
    ins = [inputs[p.name] for p in _params(case, "slice")]
    (out,) = _arrays(case, inputs, outs, ("disjoint",))
    return [*ins, out, np.int32(out.size)]


def make_bias_gelu(case, size, rng):
    rows, cols = _shape(size)
    return _by_kind(case, [_uniform(rng, rows * cols, -5.0, 5.0), _uniform(rng, cols)],
                    [_poison(np.float32, rows * cols)], [rows, cols])


def args_two_in_matrix(case, inputs, outs):
    """(matrix, per-column or small slice, output, rows, cols) with the sizes as C ints."""
    x, small = (inputs[p.name] for p in _params(case, "slice"))
    (out,) = _arrays(case, inputs, outs, ("disjoint",))
    rows, cols = (inputs[p.name] for p in _params(case, "scalar"))
    return [x, small, out, np.int32(rows), np.int32(cols)]


def make_conv3x3(case, size, rng):
    rows, cols = _shape(size)
    w = rng.uniform(-1.0, 1.0, 9).astype(np.float32)
    return _by_kind(case, [_uniform(rng, rows * cols), w], [_poison(np.float32, rows * cols)],
                    [rows, cols])


def make_gemv(case, size, rng):
    batch, m, n = size
    return _by_kind(case, [_uniform(rng, batch * m * n), _uniform(rng, batch * n)],
                    [_poison(np.float32, batch * m)], [batch, m, n])


def args_gemv(case, inputs, outs):
    a, x = (inputs[p.name] for p in _params(case, "slice"))
    (y,) = _arrays(case, inputs, outs, ("disjoint",))
    return [a, x, y, *(np.int32(inputs[p.name]) for p in _params(case, "scalar"))]


def _gemv_desc(inputs):
    batch, m, n = (int(v) for v in inputs.values() if isinstance(v, np.integer))
    return f"{batch} x {m}x{n}"


def make_dot_i8(case, n, rng):
    a, b = (rng.integers(0, 1 << 32, n, dtype=np.uint32) for _ in range(2))
    return _by_kind(case, [a, b], [np.zeros(1, np.uint32)])


def _all_bytes(inputs):
    return _gbs(float(sum(v.nbytes for v in inputs.values() if isinstance(v, np.ndarray))))


BENCHES: list[Bench] = [
    Bench("vecadd", ("vecadd",), ("vecadd",), "vecadd",
          lambda: nv_sig("vecadd", ptr_in("a"), ptr_in("b"), ptr_out("c"), val("n", "i32")),
          args_vecadd, make_vecadd, {"full": 1 << 26, "quick": 1 << 20, "dry": 5000},
          _n_elems, lambda inp: _gbs(12.0 * _max_size(inp)),
          functools.partial(PieceExpectation, pieces=elementwise_pieces)),
    Bench("saxpy", ("saxpy",), ("saxpy",), "saxpy",
          lambda: nv_sig("saxpy", val("a", "f32"), ptr_in("x"), ptr_in("y"), ptr_out("out"),
                         val("n", "i32")),
          args_saxpy, make_saxpy, {"full": 1 << 26, "quick": 1 << 20, "dry": 5000},
          _n_elems, lambda inp: _gbs(12.0 * _max_size(inp)),
          functools.partial(PieceExpectation, pieces=elementwise_pieces)),
    Bench("reduce", ("reduce*",), ("reduce*",), "reduce_sum",
          lambda: nv_sig("reduce_sum", ptr_in("x"), ptr_out("total"), val("n", "i32")),
          args_reduce, make_reduce, {"full": 1 << 26, "quick": 1 << 20, "dry": 50001},
          _n_elems, lambda inp: _gbs(4.0 * _max_size(inp)), SumExpectation,
          fresh_outputs=zeroed_outputs, launch=full_chip_launch),
    Bench("transpose", ("*transpose*",), ("transpose*",), "transpose",
          lambda: nv_sig("transpose", ptr_in("a"), ptr_out("out"), val("rows", "i32"),
                         val("cols", "i32")),
          args_matrix, make_transpose,
          {"full": 8192, "quick": 2048, "dry": (45, 70)}, _matrix_desc, _matrix_bytes),
    Bench("matmul_naive", ("matmul_naive",), ("matmul_naive",), "matmul_naive",
          lambda: nv_sig("matmul_naive", ptr_in("a"), ptr_in("b"), ptr_out("c"),
                         val("n", "i32")),
          args_matmul, make_matmul, {"full": 4096, "quick": 512, "dry": 37},
          _matmul_desc, _matmul_work, MatmulExpectation),
    Bench("matmul_tiled", ("matmul_tiled*",), ("matmul_tiled*",), "matmul_tiled",
          lambda: nv_sig("matmul_tiled", ptr_in("a"), ptr_in("b"), ptr_out("c"),
                         val("n", "i32")),
          args_matmul, make_matmul, {"full": 4096, "quick": 1024, "dry": 70},
          _matmul_desc, _matmul_work, MatmulExpectation),
    Bench("histogram", ("histogram*",), ("histogram*",), "histogram",
          lambda: nv_sig("histogram", ptr_in("data", "u8"), ptr_out("partial", "u32"),
                         val("n", "i32")),
          args_histogram, make_histogram, {"full": 1 << 26, "quick": 1 << 20, "dry": 100003},
          lambda inp: f"{_n_elems(inp)} bytes", _hist_work),
    Bench("softmax", ("softmax*",), ("softmax*",), "softmax",
          lambda: nv_sig("softmax", ptr_in("x"), ptr_out("out"), val("rows", "i32"),
                         val("cols", "i32")),
          args_matrix, make_softmax,
          {"full": (65536, 1024), "quick": (4096, 1024), "dry": (6, 700)},
          _matrix_desc, _matrix_bytes, functools.partial(PieceExpectation, pieces=row_pieces(0))),
    Bench("stencil", ("stencil*",), ("stencil*",), "stencil5",
          lambda: nv_sig("stencil5", ptr_in("u"), ptr_out("out"), val("rows", "i32"),
                         val("cols", "i32"), val("c0", "f32"), val("c1", "f32")),
          args_matrix, make_stencil,
          {"full": 8192, "quick": 2048, "dry": (70, 90)}, _matrix_desc, _matrix_bytes,
          functools.partial(PieceExpectation, pieces=row_pieces(1))),
    Bench("scan", ("scan*",), ("*scan*",), "block_scan",
          lambda: nv_sig("block_scan", ptr_in("x", "u32"), ptr_out("out", "u32"),
                         val("n", "i32")),
          args_scan, make_scan, {"full": 1 << 26, "quick": 1 << 20, "dry": 20001},
          _n_elems, lambda inp: _gbs(8.0 * _max_size(inp))),
    Bench("rmsnorm", ("rmsnorm",), ("rmsnorm",), "rmsnorm",
          lambda: nv_sig("rmsnorm", ptr_in("x"), ptr_in("w"), ptr_out("out"),
                         val("rows", "i32"), val("cols", "i32"), val("eps", "f32")),
          args_rmsnorm, make_rmsnorm,
          {"full": (65536, 1024), "quick": (4096, 1024), "dry": (6, 700)},
          _matrix_desc, _matrix_bytes,
          functools.partial(PieceExpectation, pieces=row_pieces(0, whole=("w",))),
          note="extra: an inference kernel (RMS normalisation with weights)"),
    Bench("dot", ("dot",), ("dot",), "dot",
          lambda: nv_sig("dot", ptr_in("a"), ptr_in("b"), ptr_out("result"), val("n", "i32")),
          args_dot, make_dot, {"full": 1 << 26, "quick": 1 << 20, "dry": 50001},
          _n_elems, lambda inp: _gbs(8.0 * _max_size(inp)),
          functools.partial(SumExpectation, per_warp=True),
          fresh_outputs=zeroed_outputs, launch=full_chip_launch,
          note="extra: not one of the ten of issue 6"),
    # issue 13: kernels that inference engines run
    Bench("layernorm", ("layernorm",), ("layernorm",), "layernorm",
          lambda: nv_sig("layernorm", ptr_in("x"), ptr_in("gamma"), ptr_in("beta"),
                         ptr_out("out"), val("rows", "i32"), val("cols", "i32"),
                         val("eps", "f32")),
          args_layernorm, make_layernorm,
          {"full": (65536, 1024), "quick": (4096, 1024), "dry": (5, 700)},
          _matrix_desc, _matrix_bytes,
          functools.partial(PieceExpectation, pieces=row_pieces(0, whole=("gamma", "beta"))),
          note="inference: layer normalisation (two-pass mean and variance)"),
    Bench("gelu", ("gelu_silu",), ("gelu",), "gelu",
          lambda: nv_sig("gelu", ptr_in("x"), ptr_out("y"), val("n", "i32")),
          args_elementwise, make_activation, {"full": 1 << 26, "quick": 1 << 20, "dry": 5000},
          _n_elems, lambda inp: _gbs(8.0 * _max_size(inp)),
          functools.partial(PieceExpectation, pieces=elementwise_pieces),
          note="inference: GELU (tanh form), f32 tanh"),
    Bench("silu", ("gelu_silu",), ("silu",), "silu",
          lambda: nv_sig("silu", ptr_in("x"), ptr_out("y"), val("n", "i32")),
          args_elementwise, make_activation, {"full": 1 << 26, "quick": 1 << 20, "dry": 5000},
          _n_elems, lambda inp: _gbs(8.0 * _max_size(inp)),
          functools.partial(PieceExpectation, pieces=elementwise_pieces),
          note="inference: SiLU, f32 exp and a division"),
    Bench("bias_gelu", ("gelu_silu",), ("bias_gelu",), "bias_gelu",
          lambda: nv_sig("bias_gelu", ptr_in("x"), ptr_in("bias"), ptr_out("y"),
                         val("rows", "i32"), val("cols", "i32")),
          args_two_in_matrix, make_bias_gelu,
          {"full": (16384, 4096), "quick": (1024, 4096), "dry": (4, 700)},
          _matrix_desc, _matrix_bytes,
          functools.partial(PieceExpectation, pieces=row_pieces(0, whole=("bias",))),
          note="inference: a linear layer's bias and GELU fused"),
    Bench("softmax_4k", ("softmax",), ("softmax",), "softmax",
          lambda: nv_sig("softmax", ptr_in("x"), ptr_out("out"), val("rows", "i32"),
                         val("cols", "i32")),
          args_matrix, make_softmax,
          {"full": (16384, 4096), "quick": (1024, 4096), "dry": (3, 4100)},
          _matrix_desc, _matrix_bytes, functools.partial(PieceExpectation, pieces=row_pieces(0)),
          twin="softmax", note="inference: softmax rows of 4096 (16 elements per thread)"),
    Bench("softmax_32k", ("softmax",), ("softmax",), "softmax",
          lambda: nv_sig("softmax", ptr_in("x"), ptr_out("out"), val("rows", "i32"),
                         val("cols", "i32")),
          args_matrix, make_softmax,
          {"full": (2048, 32768), "quick": (128, 32768), "dry": (2, 32800)},
          _matrix_desc, _matrix_bytes, functools.partial(PieceExpectation, pieces=row_pieces(0)),
          twin="softmax", note="inference: softmax rows of 32768 (a vocabulary's logits)"),
    Bench("conv3x3", ("conv3x3",), ("conv3x3",), "conv3x3",
          lambda: nv_sig("conv3x3", ptr_in("img"), ptr_in("w"), ptr_out("out"),
                         val("rows", "i32"), val("cols", "i32")),
          args_two_in_matrix, make_conv3x3,
          {"full": 8192, "quick": 2048, "dry": (40, 70)}, _matrix_desc, _matrix_bytes,
          functools.partial(PieceExpectation, pieces=row_pieces(1, whole=("w",))),
          note="inference: 3x3 convolution, zero padding, one channel"),
    Bench("gemv_batched", ("gemv_batched",), ("gemv_batched",), "gemv_batched",
          lambda: nv_sig("gemv_batched", ptr_in("a"), ptr_in("x"), ptr_out("y"),
                         val("batch", "i32"), val("m", "i32"), val("n", "i32")),
          args_gemv, make_gemv,
          {"full": (4096, 128, 128), "quick": (256, 128, 128), "dry": (3, 21, 70)},
          _gemv_desc, _all_bytes, note="inference: a batch of 128x128 GEMVs, a warp per row"),
    Bench("dot_i8", ("dot_i8",), ("dot_i8",), "dot_i8",
          lambda: nv_sig("dot_i8", ptr_in("a", "u32"), ptr_in("b", "u32"),
                         ptr_out("result", "u32"), val("n", "i32")),
          args_dot, make_dot_i8, {"full": 1 << 26, "quick": 1 << 20, "dry": 50001},
          lambda inp: f"{_n_elems(inp)} x 4 bytes", lambda inp: _gbs(8.0 * _max_size(inp)),
          fresh_outputs=zeroed_outputs, launch=full_chip_launch,
          note="inference: int8 dot product (dp4a, redux.sync); exact modulo 2^32"),
]


# --------------------------------------------------------------------------------------------
# Finding a benchmark's sample and reference case (they may appear while this runs)


def find_case(bench: Bench):
    """(case, None) or (None, why not): the first reference case whose sample and kernel name
    match the bench's patterns and whose .rs exists."""
    import importlib

    import samples.reference as reference
    reference = importlib.reload(reference)  # pick up cases added since the import
    stems = sorted(p.stem for p in SAMPLES_DIR.glob("*.rs"))
    matching = [s for s in stems if any(fnmatch.fnmatch(s, pat) for pat in bench.samples)]
    if not matching:
        return None, f"no sample yet (samples/{'|'.join(bench.samples)}.rs)"
    for stem in matching:
        for case in reference.SAMPLES.get(stem, []):
            if any(fnmatch.fnmatch(case.kernel, pat) for pat in bench.kernels):
                return case, None
    return None, (f"samples/{matching[0]}.rs has no reference case for a kernel named "
                  f"{'|'.join(bench.kernels)} in samples/reference.py yet")


def bench_by_name(name: str) -> Bench:
    for b in BENCHES:
        if b.name == name:
            return b
    raise SystemExit(f"unknown benchmark {name!r} (have: {', '.join(b.name for b in BENCHES)})")


# --------------------------------------------------------------------------------------------
# Compiling


def nvcc_path() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    for cand in ("/usr/local/cuda/bin/nvcc", "/usr/local/bin/nvcc"):
        if os.path.exists(cand):
            return cand
    return None


def nvcc_ptx(cu: Path, workdir: Path) -> str:
    nvcc = nvcc_path()
    if nvcc is None:
        raise RuntimeError("nvcc not found")
    out = workdir / f"{cu.stem}.nvcc.ptx"
    proc = subprocess.run([nvcc, *NVCC_FLAGS, str(cu), "-o", str(out)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"nvcc failed: {(proc.stderr or proc.stdout).strip()[:800]}")
    return out.read_text()


def entry_params(ptx: str, kernel: str) -> list[str]:
    """The .param types of `.entry kernel(...)` in PTX: ["u64", "u64", "f32", ...]."""
    m = re.search(rf"\.entry\s+{re.escape(kernel)}\s*\((.*?)\)", ptx, re.S)
    if not m:
        raise RuntimeError(f"no `.entry {kernel}` in the PTX")
    return re.findall(r"\.param\s+\.(\w+)", m.group(1))


PTX_SIZES = {"u64": 8, "s64": 8, "b64": 8, "f64": 8, "u32": 4, "s32": 4, "b32": 4, "f32": 4,
             "u16": 2, "s16": 2, "b16": 2, "u8": 1, "s8": 1, "b8": 1}


def check_entry_matches(ptx: str, sig) -> None:
    """The nvcc PTX's parameter list has the sizes the hand-written signature packs."""
    import ctypes

    from oxidec.runtime.launch import ptx_params
    have = entry_params(ptx, sig.name)
    want = [ctypes.sizeof(p.ctype) for p in ptx_params(sig)]
    got = [PTX_SIZES.get(t, -1) for t in have]
    if got != want:
        raise RuntimeError(f"`.entry {sig.name}` has parameters {have}, but the signature "
                           f"packs {len(want)} of sizes {want}")


def ptxas_check(ptx: str, workdir: Path, tag: str, kernel: str) -> str | None:
    """Assemble with `ptxas -v`; a summary of `kernel`'s resources ("regs 12, smem 0 B, stack 0,
    spills 0/0"), or None when there is no ptxas. A rejected PTX raises."""
    ptxas = shutil.which("ptxas") or ("/usr/local/bin/ptxas" if os.path.exists(
        "/usr/local/bin/ptxas") else None)
    if ptxas is None:
        return None
    src = workdir / f"{tag}.ptx"
    src.write_text(ptx)
    proc = subprocess.run([ptxas, "-v", f"-arch={ARCH}", str(src), "-o", os.devnull],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"ptxas rejected the {tag} PTX: {proc.stderr.strip()[:800]}")
    props: dict[str, str] = {}
    current = None
    for line in proc.stderr.splitlines():
        m = re.search(r"(?:Function properties for|Compiling entry function) '?([\w$.]+)'?", line)
        if m:
            current = m.group(1)
        elif current is not None:
            props[current] = props.get(current, "") + " " + line
    text = props.get(kernel, "")

    def num(pattern: str, default: str = "?") -> str:
        m = re.search(pattern, text)
        return m.group(1) if m else default

    regs = num(r"Used (\d+) registers")
    smem = num(r"(\d+) bytes smem", "0")
    stack = num(r"(\d+) bytes stack frame")
    spills = f"{num(r'(?P<n>[0-9]+) bytes spill stores')}/{num(r'([0-9]+) bytes spill loads')}"
    return f"regs {regs}, smem {smem} B, stack {stack}, spills {spills}"


def describe_error(exc: BaseException) -> str:
    """One line for the report: an oxidec CompileError's first diagnostics, else the text."""
    diags = getattr(exc, "diagnostics", None)
    if diags:
        parts = []
        for d in diags[:3]:
            span = d.primary.span
            where = os.path.relpath(span.file.name, ROOT) if os.path.isabs(span.file.name) \
                else span.file.name
            parts.append(f"{d.level}[{d.code}]: {d.message} at {where}:{span.line}:"
                         f"{span.col}" if d.code else f"{d.level}: {d.message} at "
                         f"{where}:{span.line}:{span.col}")
        more = f" (+{len(diags) - 3} more)" if len(diags) > 3 else ""
        return f"compile error: {'; '.join(parts)}{more}"
    return first_line(exc)


# --------------------------------------------------------------------------------------------
# One benchmark, in a worker process


def sm_count() -> int:
    from oxidec.runtime import context
    from oxidec.runtime.cuda import check
    ctx = context.current()
    attr = ctx.drv.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    return int(check(ctx.drv.cuDeviceGetAttribute(attr, ctx.device), "counting the SMs"))


def first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    lines = [ln for ln in text.splitlines() if ln.strip()]
    head = lines[0] if lines else text
    return f"{type(exc).__name__}: {head}"[:300]


def run_bench(bench: Bench, mode: str, warmup: int, repeat: int, seed: int,
              impls: tuple[str, ...] = ("nvcc", "oxidec")) -> dict:
    row: dict[str, Any] = {"name": bench.name, "mode": mode, "problems": [], "notes": []}
    if bench.note:
        row["notes"].append(bench.note)
    case, why = find_case(bench)
    if case is None:
        row["status"] = "missing"
        row["problems"].append(why)
        return row
    row["case"] = case.id
    row["sample"] = case.file
    work = Path(tempfile.mkdtemp(prefix=f"bench-{bench.name}-"))
    try:
        _run_bench(bench, case, mode, warmup, repeat, seed, row, work, impls)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return row


def _run_bench(bench, case, mode, warmup, repeat, seed, row, work, which) -> None:
    from oxidec.api import KernelModule, compile_file

    # Both compilers; either failing leaves the other to run.
    ox_mod = nv_mod = None
    nv_sig_ = bench.nv_params()
    try:
        t0 = time.perf_counter()
        ox_mod = compile_file(case.path, arch=ARCH)
        row["oxidec_compile_s"] = time.perf_counter() - t0
        row["oxidec_ptxas"] = ptxas_check(ox_mod.ptx, work, "oxidec", case.kernel)
    except Exception as exc:
        row["problems"].append(f"oxidec: {describe_error(exc)}")
        ox_mod = None
    if not bench.cu.exists():
        row["problems"].append(f"nvcc: no twin {bench.cu.relative_to(ROOT)}")
    else:
        try:
            t0 = time.perf_counter()
            ptx = nvcc_ptx(bench.cu, work)
            row["nvcc_compile_s"] = time.perf_counter() - t0
            check_entry_matches(ptx, nv_sig_)
            row["nvcc_ptxas"] = ptxas_check(ptx, work, "nvcc", bench.nv_kernel)
            nv_mod = KernelModule.from_ptx(ptx, [nv_sig_], name=bench.cu.name)
        except Exception as exc:
            row["problems"].append(f"nvcc: {first_line(exc)}")
            nv_mod = None

    rng = np.random.default_rng(seed)
    size = bench.sizes[mode]
    t0 = time.perf_counter()
    inputs = bench.make(case, size, rng)
    if bench.launch is not None:
        grid, block = bench.launch(case, inputs, None if mode == "dry" else sm_count())
    else:
        grid, block = case.launch(inputs)
    row["size"] = bench.describe(inputs)
    row["grid"], row["block"] = list(grid), list(block)
    amount, unit = bench.work(inputs)
    row["unit"] = unit
    t1 = time.perf_counter()
    expect = bench.expect(case, inputs, grid, block)
    row["inputs_s"], row["reference_s"] = t1 - t0, time.perf_counter() - t1
    fresh = bench.fresh_outputs or (lambda c, inp: c.fresh_outputs(inp))

    impls = []
    if nv_mod is not None and "nvcc" in which:
        impls.append(("nvcc", nv_mod.kernel(bench.nv_kernel),
                      lambda outs: bench.nv_args(case, inputs, outs)))
    if ox_mod is not None and "oxidec" in which:
        impls.append(("oxidec", ox_mod.kernel(case.kernel), lambda outs: case.args(inputs, outs)))
    for k, (tag, kernel, make_args) in enumerate(impls):
        outs = fresh(case, inputs)
        try:
            args = make_args(outs)
            kernel.check_args(*args)
            if mode == "dry" and tag == "nvcc":
                row["nvcc_ok"] = None  # arguments fit the signature; no GPU to run it on
                row["notes"].append("nvcc: compiled, .entry and arguments match the signature "
                                    "(not run: no GPU)")
                continue
            if mode == "dry":
                t0 = time.perf_counter()
                kernel.launch(grid, block, *args, device="sim")
                row["oxidec_sim_s"] = time.perf_counter() - t0
            else:
                res = kernel.launch(grid, block, *args, device="gpu", time=True,
                                    warmup=warmup, repeat=repeat)
                ms = res.median_ms
                row[f"{tag}_ms"] = ms
                row[f"{tag}_min_ms"] = res.timing.min_ms
                row[f"{tag}_rate"] = amount / (ms * 1e-3) / 1e9
            problems = expect.problems(outs)
            row[f"{tag}_ok"] = not problems
            row["problems"] += [f"{tag}: {p}" for p in problems]
        except Exception as exc:
            row[f"{tag}_ok"] = False
            row["problems"].append(f"{tag}: {first_line(exc)}")
            if mode != "dry" and gpu_faulted():
                # the context is gone for this process: the parent reruns the others alone
                row["skipped"] = [t for t, _, _ in impls[k + 1:]]
                break
    if row.get("nvcc_ms") and row.get("oxidec_ms"):
        row["ratio"] = row["nvcc_ms"] / row["oxidec_ms"]
    row["status"] = "ok" if not row["problems"] else "problems"


def gpu_faulted() -> bool:
    from oxidec.runtime import context
    return context.fault() is not None


def worker_main(args) -> int:
    bench = bench_by_name(args.worker)
    try:
        row = run_bench(bench, args.mode, args.warmup, args.repeat, args.seed,
                        tuple(args.impls.split(",")))
    except Exception as exc:
        row = {"name": bench.name, "status": "crashed", "notes": [],
               "problems": [f"harness: {first_line(exc)}"],
               "traceback": traceback.format_exc()}
    Path(args.json).write_text(json.dumps(row, default=float))
    return 0


# --------------------------------------------------------------------------------------------
# The driver: one worker per kernel, then build times, then the report


def run_worker(bench: Bench, mode: str, opts, workdir: Path) -> dict:
    row = _run_worker(bench, mode, opts, workdir, ("nvcc", "oxidec"))
    if row.get("skipped"):  # a device fault ended the worker early: the rest in a fresh one
        again = _run_worker(bench, mode, opts, workdir, tuple(row.pop("skipped")))
        for key, value in again.items():
            if key.startswith(("nvcc_", "oxidec_")) and key not in row:
                row[key] = value
        row["problems"] += [p for p in again.get("problems", []) if p not in row["problems"]]
        row["worker_s"] += again.get("worker_s", 0.0)
        if row.get("nvcc_ms") and row.get("oxidec_ms"):
            row["ratio"] = row["nvcc_ms"] / row["oxidec_ms"]
    return row


def _run_worker(bench: Bench, mode: str, opts, workdir: Path, impls: tuple[str, ...]) -> dict:
    out = workdir / f"{bench.name}.{'-'.join(impls)}.json"
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", bench.name,
            "--mode", mode, "--json", str(out), "--warmup", str(opts.warmup),
            "--repeat", str(opts.repeat), "--seed", str(opts.seed), "--impls", ",".join(impls)]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        return {"name": bench.name, "status": "timeout", "notes": [],
                "problems": [f"harness: worker timed out after {opts.timeout} s"]}
    wall = time.perf_counter() - t0
    if out.exists():
        row = json.loads(out.read_text())
    else:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        row = {"name": bench.name, "status": "crashed", "notes": [],
               "problems": [f"harness: worker exited {proc.returncode}: {' | '.join(tail)}"]}
    row["worker_s"] = wall
    if row.get("traceback"):
        sys.stderr.write(row["traceback"])
    return row


def fmt_ms(v) -> str:
    return f"{v:.3f}" if isinstance(v, (int, float)) else "-"


def fmt_rate(v, unit) -> str:
    if not isinstance(v, (int, float)):
        return "-"
    return f"{v:,.0f} {unit}" if unit == "GB/s" else f"{v / 1e3:,.2f} TFLOP/s"


def fmt_ok(v) -> str:
    return {True: "yes", False: "no", None: "n/a"}.get(v, "-")


def results_table(rows: list[dict], mode: str) -> list[str]:
    lines = ["| kernel | size | nvcc ms | oxidec ms | ratio | nvcc rate | oxidec rate "
             "| correct (nvcc / oxidec) |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        unit = r.get("unit", "")
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else "-"
        if r.get("status") == "missing":
            lines.append(f"| {r['name']} | - | - | - | - | - | - | not benchmarked: "
                         f"{r['problems'][0]} |")
            continue
        ok = f"{fmt_ok(r.get('nvcc_ok'))} / {fmt_ok(r.get('oxidec_ok'))}"
        lines.append(f"| {r['name']} | {r.get('size', '-')} | {fmt_ms(r.get('nvcc_ms'))} | "
                     f"{fmt_ms(r.get('oxidec_ms'))} | {ratio} | "
                     f"{fmt_rate(r.get('nvcc_rate'), unit)} | "
                     f"{fmt_rate(r.get('oxidec_rate'), unit)} | {ok} |")
    return lines


def gpu_info() -> str:
    try:
        proc = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                               "--format=csv,noheader"], capture_output=True, text=True,
                              timeout=30)
        text = proc.stdout.strip().splitlines()
        return text[0] if proc.returncode == 0 and text else "unknown (nvidia-smi failed)"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown (no nvidia-smi)"


def nvcc_version() -> str:
    nvcc = nvcc_path()
    if nvcc is None:
        return "no nvcc"
    try:
        proc = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30)
        lines = [ln for ln in proc.stdout.splitlines() if "release" in ln]
        return lines[0].strip() if lines else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def source_revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True, timeout=10)
        if rev.returncode == 0:
            return rev.stdout.strip() + (" (+ uncommitted changes)" if dirty.stdout.strip()
                                         else "")
    except (OSError, subprocess.TimeoutExpired):
        pass
    return "unknown (no git checkout)"


def build_times(rows: list[dict], runs: int) -> list[tuple[str, float | None, float | None]]:
    """Cold-process `oxidec build` vs `nvcc -ptx` for each benchmarked kernel's sample and twin
    (benchmarks/build_time.py's measurement: median of `runs` fresh processes after one)."""
    import build_time
    import compileall
    # the compiler's bytecode, as `pip install` leaves it: where PYTHONDONTWRITEBYTECODE is
    # set (the GPU machine), each run would otherwise compile every module from source
    # (~0.7 s more per build: what made this table read 0.4x there on 2026-12-03)
    compileall.compile_dir(str(ROOT / "oxidec"), quiet=1)
    nvcc = nvcc_path()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            if "sample" not in r:
                continue
            sample = SAMPLES_DIR / r["sample"]
            twin = bench_by_name(r["name"]).cu
            ox = nv = None
            # paired: the two compilers alternate, one fresh process each; oxidec without its
            # compile cache (a cold build, as nvcc's)
            commands = [[sys.executable, "-m", "oxidec.cli", "build", str(sample), "-o",
                         f"{tmp}/{sample.stem}.ptx", "--arch", ARCH, "--no-cache"]]
            if nvcc and twin.exists():
                commands.append([nvcc, *NVCC_FLAGS, str(twin), "-o",
                                 f"{tmp}/{twin.stem}.nvcc.ptx"])
            try:
                medians = build_time.time_paired(commands, runs)
            except SystemExit:  # a compiler failed: leave the row's times empty
                medians = []
            if medians:
                ox = medians[0][0]
                nv = medians[1][0] if len(medians) > 1 else None
            out.append((r["name"], ox, nv))
    return out


def report(rows, builds, mode: str, opts, total_s: float) -> str:
    now = _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    gpu = gpu_info() if mode != "dry" else "none (dry run: oxidec on the CPU simulator)"
    title = {"full": "oxidec vs nvcc on the GPU", "quick": "oxidec vs nvcc, quick sizes (smoke "
             "test, not representative)", "dry": "oxidec vs nvcc, dry run (no GPU)"}[mode]
    lines = [f"# {title}", "",
             f"- date: {now}",
             f"- GPU, driver: {gpu}",
             f"- nvcc: {nvcc_version()}",
             f"- oxidec revision: {source_revision()}; nvcc flags: `{' '.join(NVCC_FLAGS)}`; "
             f"oxidec: `compile_file(..., arch=\"{ARCH}\")` (default -O2, fma contraction on)",
             f"- host: python {platform.python_version()}, numpy {np.__version__}, "
             f"{platform.node()}",
             f"- timing: CUDA events around each launch, {opts.warmup} warm-up launches, median "
             f"of {opts.repeat}; both modules loaded through oxidec.runtime in one worker "
             "process per kernel, on the same inputs" if mode != "dry" else
             "- timing: none (dry run); the oxidec kernels ran once on the simulator",
             "- ratio = nvcc ms / oxidec ms (>= 1.00: oxidec at least as fast). Rates count "
             "the minimal traffic (each input read once, each output written once) or 2 n^3 "
             "flops for the matmuls.",
             f"- total harness time: {total_s:.0f} s", "",
             "## Kernels", ""]
    lines += results_table(rows, mode)
    shares = [r for r in rows if r.get("ceiling_share")]
    if shares:
        lines += ["", "Memory-bound kernels against the measured copy ceiling, "
                  f"{shares[0]['ceiling_share'][2]:,.0f} GB/s (benchmarks/copy_ceiling.py: a "
                  "device-to-device copy of 256 MiB, read + write bytes):", "",
                  "| kernel | nvcc | oxidec |", "|---|---|---|"]
        for r in shares:
            nv, ox, _ = r["ceiling_share"]
            lines.append(f"| {r['name']} | {f'{nv:.0%}' if nv else '-'} | {ox:.0%} |")
    lines += [""] + [f"- {note}" for note in NOTES]
    lines += ["", "## Details", ""]
    for r in rows:
        bits = []
        if r.get("case"):
            bits.append(f"case `{r['case']}`")
        if r.get("grid"):
            bits.append(f"grid {tuple(r['grid'])} block {tuple(r['block'])}")
        for tag in ("nvcc", "oxidec"):
            if r.get(f"{tag}_min_ms") is not None:
                bits.append(f"{tag} min {r[f'{tag}_min_ms']:.3f} ms")
            if r.get(f"{tag}_ptxas"):
                bits.append(f"{tag} ptxas: {r[f'{tag}_ptxas']}")
        if r.get("nvcc_ms") is not None and r["name"] in GPU_MD_BASELINE_MS and mode == "full":
            bits.append(f"GPU.md's nvcc baseline {GPU_MD_BASELINE_MS[r['name']]} ms")
        if r.get("oxidec_sim_s") is not None:
            bits.append(f"simulator run {r['oxidec_sim_s']:.1f} s")
        lines.append(f"- **{r['name']}** ({r.get('status', '?')}): " + "; ".join(bits))
        for note in r.get("notes", []):
            lines.append(f"  - {note}")
        for prob in r.get("problems", []):
            lines.append(f"  - PROBLEM: {prob if len(prob) <= 600 else prob[:600] + ' ...'}")
    if builds:
        lines += ["", "## Build time (CPU, cold process, median of "
                  f"{opts.build_runs} runs after one warm-up)", "",
                  "| kernel | oxidec build (s) | nvcc -ptx (s) | nvcc / oxidec |",
                  "|---|---|---|---|"]
        for name, ox, nv in builds:
            ratio = f"{nv / ox:.1f}x" if ox and nv else "-"
            lines.append(f"| {name} | {fmt_ms(ox)} | {fmt_ms(nv)} | {ratio} |")
    lines += ["", "Static SASS comparisons: SASS.md. Compile-speed measurements on the "
              "development machine: BUILD_TIME.md."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated benchmark names (default: all)")
    ap.add_argument("--quick", action="store_true", help="small sizes (GPU smoke test)")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU: compile both, check signatures, run oxidec on the simulator")
    ap.add_argument("--out", help="where to write the report (default benchmarks/RESULTS.md; "
                    "dry runs and --quick default to stdout only)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--timeout", type=int, default=None,
                    help="seconds per kernel's worker (default 150, dry run 600)")
    ap.add_argument("--build-runs", type=int, default=None,
                    help="cold processes per build-time measurement (default 3, 1 with "
                    "--quick or --dry-run; 0: skip build times)")
    ap.add_argument("--list", action="store_true", help="say which kernels are ready; run none")
    ap.add_argument("--sass", metavar="DIR", help="write each kernel's SASS, oxidec's and "
                    "nvcc's, and a table of their instruction counts to DIR; run none "
                    "(benchmarks/sass_view.py; needs ptxas and cuobjdump)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)
    ap.add_argument("--json", help=argparse.SUPPRESS)
    ap.add_argument("--impls", default="nvcc,oxidec", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.worker:
        return worker_main(opts)

    mode = "dry" if opts.dry_run else "quick" if opts.quick else "full"
    if opts.timeout is None:
        opts.timeout = 600 if mode == "dry" else 150
    if opts.build_runs is None:
        opts.build_runs = 3 if mode == "full" else 1
    benches = BENCHES
    if opts.only:
        benches = [bench_by_name(n.strip()) for n in opts.only.split(",") if n.strip()]
    if opts.sass:
        from sass_view import sass_view
        return sass_view(benches, Path(opts.sass))
    if opts.list:
        for b in benches:
            case, why = find_case(b)
            twin = "twin ok" if b.cu.exists() else "NO TWIN"
            print(f"{b.name:14} {case.id if case else why}  [{twin}]")
        return 0

    t_start = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        for b in benches:
            print(f"[bench] {b.name} ...", file=sys.stderr, flush=True)
            row = run_worker(b, mode, opts, Path(tmp))
            rows.append(row)
            status = row.get("status")
            extra = (f" nvcc {fmt_ms(row.get('nvcc_ms'))} ms, oxidec "
                     f"{fmt_ms(row.get('oxidec_ms'))} ms" if mode != "dry" else "")
            print(f"[bench] {b.name}: {status}{extra} ({row.get('worker_s', 0):.1f} s)"
                  + "".join(f"\n        {p}" for p in row.get("problems", [])),
                  file=sys.stderr, flush=True)
    ceiling = None
    if mode != "dry":  # what a memory-bound kernel can reach: a device-to-device copy
        from copy_ceiling import copy_ceiling_gbs
        try:
            ceiling = copy_ceiling_gbs(repeat=opts.repeat)
        except Exception as err:  # the report says so; the kernels' figures still stand
            print(f"[bench] copy ceiling: {first_line(err)}", file=sys.stderr)
    for r in rows:
        if ceiling and r.get("unit") == "GB/s" and r.get("oxidec_rate"):
            r["ceiling_share"] = (r.get("nvcc_rate") / ceiling if r.get("nvcc_rate") else None,
                                  r["oxidec_rate"] / ceiling, ceiling)
    builds = []
    if opts.build_runs > 0:
        print("[bench] build times ...", file=sys.stderr, flush=True)
        builds = build_times(rows, opts.build_runs)
    text = report(rows, builds, mode, opts, time.perf_counter() - t_start)
    print(text)
    out = opts.out or (str(HERE / "RESULTS.md") if mode == "full" else None)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
        print(f"[bench] wrote {out}", file=sys.stderr)
    bad = [r for r in rows if r.get("status") not in ("ok", "missing")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
