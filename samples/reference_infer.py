"""NumPy references for the inference-style samples that the benchmark suite runs against
their CUDA C twins (benchmarks/bench.py, issue 13): layernorm, the f32 activations (GELU,
SiLU, fused bias + GELU), a 3x3 convolution, a batched small GEMV and an int8 dp4a dot
product. Part of reference.SAMPLES (each case also runs on the simulator); kept in their
own module so that reference.py stays readable."""
from __future__ import annotations

import numpy as np

from .reference import (BLOCK_1D, EXACT, U32, KernelCase, Tolerance, _accumulator, _f64,
                        _grid_2d, _launch_1d_over, _n1d, _out, _reduce_blocks,
                        _uniform_f32, disjoint, rust_const, scalar, slice_)

# --------------------------------------------------------------------------------------------
# layernorm.rs


def _rows_cols(rng, small):
    return ((int(rng.integers(3, 7)), int(rng.integers(40, 700))) if small
            else (int(rng.integers(300, 500)), int(rng.integers(900, 1100))))


def _layernorm_make(rng, small):
    rows, cols = _rows_cols(rng, small)
    return {
        "x": _uniform_f32(rng, rows * cols, -2.0, 4.0),  # a mean far from 0
        "gamma": _uniform_f32(rng, cols, 0.5, 1.5),
        "beta": _uniform_f32(rng, cols, -1.0, 1.0),
        "out": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
        "eps": np.float32(1e-5),
    }


def _layernorm_parts(inp):
    rows, cols = int(inp["rows"]), int(inp["cols"])
    x = _f64(inp["x"]).reshape(rows, cols)
    mean = x.mean(axis=1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + float(inp["eps"]))
    return x, mean, rstd


def _layernorm_ref(inp):
    x, mean, rstd = _layernorm_parts(inp)
    return {"out": ((x - mean) * rstd * _f64(inp["gamma"]) + _f64(inp["beta"])).ravel()}


def _layernorm_tol(inp):
    # the mean and the variance are sums of cols terms in a block-dependent order: the mean's
    # error (cols u mean|x|) and the relative error of rstd ((cols + 16) u) both reach every
    # output through (x - mean) rstd gamma; beta's addition rounds once more
    x, mean, rstd = _layernorm_parts(inp)
    cols = x.shape[1]
    scale = (np.abs(x - mean) + np.abs(x).mean(axis=1, keepdims=True)) * rstd
    atol = 1.01 * (cols + 16) * U32 * scale * np.abs(_f64(inp["gamma"]))
    atol = atol + 4 * U32 * np.abs(_f64(inp["beta"]))
    return Tolerance(atol=atol.ravel(), why="float64 reference; two block sums in any order")


LAYERNORM = KernelCase(
    "layernorm",
    "layernorm",
    (slice_("x", np.float32), slice_("gamma", np.float32), slice_("beta", np.float32),
     disjoint("out", np.float32), scalar("rows", np.uint64), scalar("cols", np.uint64),
     scalar("eps", np.float32)),
    _layernorm_make,
    lambda inp: ((int(inp["rows"]), 1, 1), (rust_const("layernorm.rs", "BLOCK"), 1, 1)),
    _layernorm_ref,
    _layernorm_tol,
)

# --------------------------------------------------------------------------------------------
# gelu_silu.rs

GELU_C = float(np.float32(0.7978845608))  # the kernels' f32 constants
GELU_A = float(np.float32(0.044715))


def gelu_f64(x: np.ndarray) -> np.ndarray:
    """The tanh form of GELU with the kernels' f32 constants, in float64."""
    x = _f64(x)
    return 0.5 * x * (1.0 + np.tanh(GELU_C * (x + GELU_A * x ** 3)))


def _gelu_tol_of(x, want):
    # the inner polynomial (4 roundings), tanh within 2 ulp, 1 + t, two products: a few units
    # of u in |x| (0.5 x (1 + t) with |1 + t| <= 2) or in the result
    return 8 * U32 * (np.abs(_f64(x)) + np.abs(want))


def _act_make(lo, hi):
    def make(rng, small):
        n = _n1d(rng, small)
        x = _uniform_f32(rng, n, lo, hi)
        x[:3] = (0.0, -0.0, np.float32(hi))
        return {"x": x, "y": _out(np.float32, n)}
    return make


GELU = KernelCase(
    "gelu_silu",
    "gelu",
    (slice_("x", np.float32), disjoint("y", np.float32)),
    _act_make(-6.0, 6.0),
    _launch_1d_over("y"),
    lambda inp: {"y": gelu_f64(inp["x"])},
    lambda inp: Tolerance(atol=_gelu_tol_of(inp["x"], gelu_f64(inp["x"])),
                          why="float64 reference; tanh within 2 ulp"),
)


def _silu_f64(x):
    x = _f64(x)
    return x / (1.0 + np.exp(-x))


SILU = KernelCase(
    "gelu_silu",
    "silu",
    (slice_("x", np.float32), disjoint("y", np.float32)),
    _act_make(-12.0, 12.0),
    _launch_1d_over("y"),
    lambda inp: {"y": _silu_f64(inp["x"])},
    Tolerance(rtol=6 * U32, why="float64 reference; exp within 2 ulp, a sum and a division"),
)


def _bias_gelu_make(rng, small):
    rows, cols = _rows_cols(rng, small)
    return {
        "x": _uniform_f32(rng, rows * cols, -5.0, 5.0),
        "bias": _uniform_f32(rng, cols, -1.0, 1.0),
        "y": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
    }


def _biased(inp):
    rows, cols = int(inp["rows"]), int(inp["cols"])
    # x + bias rounds to f32 in the kernel, as here
    return (inp["x"].reshape(rows, cols) + inp["bias"][None, :]).astype(np.float32).ravel()


def _bias_gelu_launch(inp):
    block = rust_const("gelu_silu.rs", "BLOCK")
    cols, rows = int(inp["cols"]), int(inp["rows"])
    return ((cols + block - 1) // block, rows, 1), (block, 1, 1)


BIAS_GELU = KernelCase(
    "gelu_silu",
    "bias_gelu",
    (slice_("x", np.float32), slice_("bias", np.float32), disjoint("y", np.float32),
     scalar("rows", np.uint64), scalar("cols", np.uint64)),
    _bias_gelu_make,
    _bias_gelu_launch,
    lambda inp: {"y": gelu_f64(_biased(inp))},
    lambda inp: Tolerance(atol=_gelu_tol_of(_biased(inp), gelu_f64(_biased(inp))),
                          why="float64 reference of gelu(fl(x + bias)); tanh within 2 ulp"),
)

# --------------------------------------------------------------------------------------------
# conv3x3.rs


def _conv_make(rng, small):
    rows, cols = ((int(rng.integers(20, 40)), int(rng.integers(20, 40))) if small
                  else (int(rng.integers(200, 300)), int(rng.integers(200, 300))))
    return {
        "img": _uniform_f32(rng, rows * cols),
        "w": _uniform_f32(rng, 9, -1.0, 1.0),
        "out": _out(np.float32, rows * cols),
        "rows": np.uint64(rows),
        "cols": np.uint64(cols),
    }


def conv3x3_f64(img: np.ndarray, w: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Zero-padded 3x3 correlation (out[r][c] = sum w[i][j] img[r+i-1][c+j-1]) in float64."""
    pad = np.zeros((rows + 2, cols + 2))
    pad[1:-1, 1:-1] = _f64(img).reshape(rows, cols)
    w = _f64(w).reshape(3, 3)
    out = np.zeros((rows, cols))
    for i in range(3):
        for j in range(3):
            out += w[i, j] * pad[i:i + rows, j:j + cols]
    return out.ravel()


def _conv_ref(inp):
    return {"out": conv3x3_f64(inp["img"], inp["w"], int(inp["rows"]), int(inp["cols"]))}


def _conv_tol(inp):
    mags = conv3x3_f64(np.abs(inp["img"]), np.abs(inp["w"]), int(inp["rows"]), int(inp["cols"]))
    return Tolerance(atol=1.01 * 10 * U32 * mags, why="float64 reference; 9 fma: gamma_9 sum|w x|")


CONV3X3 = KernelCase(
    "conv3x3",
    "conv3x3",
    (slice_("img", np.float32), slice_("w", np.float32), disjoint("out", np.float32),
     scalar("rows", np.uint64), scalar("cols", np.uint64)),
    _conv_make,
    lambda inp: _grid_2d(int(inp["cols"]), int(inp["rows"])),
    _conv_ref,
    _conv_tol,
)

# --------------------------------------------------------------------------------------------
# gemv_batched.rs


def _gemv_make(rng, small):
    batch, m, n = ((int(rng.integers(2, 4)), int(rng.integers(9, 20)), int(rng.integers(40, 90)))
                   if small else (int(rng.integers(4, 7)), int(rng.integers(30, 60)),
                                  int(rng.integers(100, 200))))
    return {
        "a": _uniform_f32(rng, batch * m * n),
        "x": _uniform_f32(rng, batch * n),
        "y": _out(np.float32, batch * m),
        "batch": np.uint64(batch),
        "m": np.uint64(m),
        "n": np.uint64(n),
    }


def _gemv_dims(inp):
    return int(inp["batch"]), int(inp["m"]), int(inp["n"])


def gemv_batched_f64(a, x, batch: int, m: int, n: int) -> np.ndarray:
    return np.einsum("bij,bj->bi", _f64(a).reshape(batch, m, n), _f64(x).reshape(batch, n)).ravel()


def _gemv_launch(inp):
    batch, m, _ = _gemv_dims(inp)
    warps = rust_const("gemv_batched.rs", "WARPS")
    return ((m + warps - 1) // warps, batch, 1), (rust_const("gemv_batched.rs", "BLOCK"), 1, 1)


def _gemv_tol(inp):
    batch, m, n = _gemv_dims(inp)
    mags = gemv_batched_f64(np.abs(inp["a"]), np.abs(inp["x"]), batch, m, n)
    return Tolerance(atol=1.01 * (n + 1) * U32 * mags, why="float64 reference; gamma_n sum|a x|")


GEMV_BATCHED = KernelCase(
    "gemv_batched",
    "gemv_batched",
    (slice_("a", np.float32), slice_("x", np.float32), disjoint("y", np.float32),
     scalar("batch", np.uint64), scalar("m", np.uint64), scalar("n", np.uint64)),
    _gemv_make,
    _gemv_launch,
    lambda inp: {"y": gemv_batched_f64(inp["a"], inp["x"], *_gemv_dims(inp))},
    _gemv_tol,
)

# --------------------------------------------------------------------------------------------
# dot_i8.rs


def dot_i8_u32(a: np.ndarray, b: np.ndarray) -> np.uint32:
    """The sum of the products of the signed bytes of a and b, modulo 2^32 (the kernel's
    wrapping 32-bit sum: exact in any order)."""
    total = 0
    step = 1 << 22
    for lo in range(0, a.size, step):
        pa = a[lo:lo + step].view(np.int8).astype(np.int64)
        pb = b[lo:lo + step].view(np.int8).astype(np.int64)
        total += int(np.dot(pa, pb))
    return np.uint32(total % (1 << 32))


def _dot_i8_make(rng, small):
    n = _n1d(rng, small)
    words = [rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32) for _ in range(2)]
    return {"a": words[0], "b": words[1], "result": _accumulator(np.uint32)}


DOT_I8 = KernelCase(
    "dot_i8",
    "dot_i8",
    (slice_("a", np.uint32), slice_("b", np.uint32), disjoint("result", np.uint32)),
    _dot_i8_make,
    lambda inp: ((_reduce_blocks(inp["a"].size), 1, 1), (BLOCK_1D, 1, 1)),
    lambda inp: {"result": np.array([dot_i8_u32(inp["a"], inp["b"])], np.uint32)},
    EXACT,
    notes="`result` is an accumulator: make() zeroes it. dp4a (sm_61), redux.sync (sm_80).",
)

INFER_SAMPLES: dict[str, list[KernelCase]] = {
    "layernorm": [LAYERNORM],
    "gelu_silu": [GELU, SILU, BIAS_GELU],
    "conv3x3": [CONV3X3],
    "gemv_batched": [GEMV_BATCHED],
    "dot_i8": [DOT_I8],
}

from . import reference as _reference  # noqa: E402

if hasattr(_reference, "register"):  # else reference.py registers these when it finishes
    _reference.register(INFER_SAMPLES)

__all__ = ["INFER_SAMPLES", "gelu_f64", "conv3x3_f64", "gemv_batched_f64", "dot_i8_u32"]
