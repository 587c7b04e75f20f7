"""The bf16 tensor-core GEMM of samples/gemm_bf16_mma.rs against cuBLAS (through CuPy).

    python3 benchmarks/gemm_bf16.py [--sizes 1024,2048,4096] [--repeat 20]   # GPU machine
    python3 benchmarks/gemm_bf16.py --dry-run          # here: the kernel on the simulator

C = A B with A (m x k), B (k x n) bf16 and C f32. For each size, on the same bf16 inputs:
- oxidec: the sample compiled for sm_90, timed with CUDA events (median of --repeat);
- cuBLAS bf16: `cublasGemmEx` with bf16 A and B, f32 C, CUBLAS_COMPUTE_32F (the tensor cores;
  row-major C = A B is computed as the column-major C^T = B^T A^T);
- cuBLAS f32: `cupy.matmul` of the same bf16 values widened to f32 (SGEMM; no TF32 unless
  CUPY_TF32 is set), the fallback when a CuPy build lacks gemmEx.
Each result is checked against the float64 product within the sample's tolerance
(samples/reference.py), and the table gives ms, TFLOP/s (2 m n k) and cuBLAS/oxidec ratios
(>= 1.00: oxidec at least as fast).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from samples.reference import GEMM_BF16, _bf16_bits, _bf16_values  # noqa: E402

CUDA_R_32F, CUDA_R_16BF = 0, 14
CUBLAS_COMPUTE_32F = 68
CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99
CUBLAS_OP_N = 0


def inputs(rng: np.random.Generator, m: int, n: int, k: int) -> dict:
    return {"a": _bf16_bits(rng.uniform(-1.0, 1.0, m * k)),
            "b": _bf16_bits(rng.uniform(-1.0, 1.0, k * n)),
            "c": np.full(m * n, np.nan, np.float32),
            "m": np.uint32(m), "n": np.uint32(n), "k": np.uint32(k)}


def check(inp: dict, got: np.ndarray, what: str) -> str:
    problems = GEMM_BF16.check(inp, {"c": got})
    return "ok" if not problems else f"{what}: " + problems[0][:200]


def run_oxidec(inp: dict, device: str, warmup: int, repeat: int):
    from oxidec.api import compile_file
    kernel = compile_file(GEMM_BF16.path, arch="sm_90").gemm_bf16
    grid, block = GEMM_BF16.launch(inp)
    args = [inp[p.name] for p in GEMM_BF16.params]
    res = kernel.launch(grid, block, *args, device=device, time=device == "gpu",
                        warmup=warmup, repeat=repeat)
    return (res.timing.median_ms if device == "gpu" else None), inp["c"].copy()


def _time_cupy(fn, warmup: int, repeat: int) -> float:
    import cupy
    for _ in range(warmup):
        fn()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(repeat):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return float(np.median(times))


def run_cublas_bf16(inp: dict, warmup: int, repeat: int):
    import cupy
    from cupy_backends.cuda.libs import cublas
    m, n, k = int(inp["m"]), int(inp["n"]), int(inp["k"])
    a, b = cupy.asarray(inp["a"]), cupy.asarray(inp["b"])
    c = cupy.full(m * n, np.nan, np.float32)
    alpha, beta = np.array(1.0, np.float32), np.array(0.0, np.float32)
    handle = cupy.cuda.device.get_cublas_handle()

    def gemm():  # column-major C^T (n x m) = B^T (n x k) A^T (k x m)
        cublas.gemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, alpha.ctypes.data,
                      b.data.ptr, CUDA_R_16BF, n, a.data.ptr, CUDA_R_16BF, k, beta.ctypes.data,
                      c.data.ptr, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT_TENSOR_OP)
    gemm()
    cupy.cuda.runtime.deviceSynchronize()
    out = cupy.asnumpy(c)
    return _time_cupy(gemm, warmup, repeat), out


def run_cublas_f32(inp: dict, warmup: int, repeat: int):
    import cupy
    m, n, k = int(inp["m"]), int(inp["n"]), int(inp["k"])
    a = cupy.asarray(_bf16_values(inp["a"]).astype(np.float32).reshape(m, k))
    b = cupy.asarray(_bf16_values(inp["b"]).astype(np.float32).reshape(k, n))
    out = cupy.asnumpy(cupy.matmul(a, b)).reshape(-1)
    return _time_cupy(lambda: cupy.matmul(a, b), warmup, repeat), out


def tflops(m: int, n: int, k: int, ms: float | None) -> str:
    return f"{2 * m * n * k / (ms * 1e-3) / 1e12:.1f}" if ms else "-"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1024,2048,4096",
                    help="square sizes m = n = k (multiples of 64), comma-separated")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--dry-run", action="store_true", help="no GPU: the simulator, tiny size")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    if args.dry_run:
        inp = inputs(rng, 128, 64, 96)
        _, got = run_oxidec(inp, "sim", 0, 1)
        print(f"gemm_bf16 128x64x96 on the simulator: {check(inp, got, 'oxidec')}")
        return 0
    rows = ["| m = n = k | oxidec ms | TFLOP/s | cuBLAS bf16 ms | TFLOP/s | bf16 ratio | "
            "cuBLAS f32 ms | TFLOP/s | f32 ratio | checks |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for size in (int(s) for s in args.sizes.split(",")):
        inp = inputs(rng, size, size, size)
        notes = []
        ox_ms, got = run_oxidec(inp, "gpu", args.warmup, args.repeat)
        notes.append(check(inp, got, "oxidec"))
        bf_ms = f_ms = None
        try:
            bf_ms, got = run_cublas_bf16(inp, args.warmup, args.repeat)
            notes.append(check(inp, got, "cuBLAS bf16"))
        except Exception as exc:  # a CuPy without gemmEx: the f32 row still stands
            notes.append(f"cuBLAS bf16 unavailable: {type(exc).__name__}: {exc}"[:200])
        f_ms, got = run_cublas_f32(inp, args.warmup, args.repeat)
        notes.append(check(inp, got, "cuBLAS f32"))
        ratio = (lambda ms: f"{ms / ox_ms:.2f}" if ms and ox_ms else "-")
        rows.append(f"| {size} | {ox_ms:.3f} | {tflops(size, size, size, ox_ms)} | "
                    f"{bf_ms or float('nan'):.3f} | {tflops(size, size, size, bf_ms)} | "
                    f"{ratio(bf_ms)} | {f_ms:.3f} | {tflops(size, size, size, f_ms)} | "
                    f"{ratio(f_ms)} | {'; '.join(notes)} |")
        print(rows[-1], flush=True)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
