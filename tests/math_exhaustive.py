"""Exhaustive (or strided) ulp-error sweeps of the f32-native math routines over every f32
input of a range, run on the simulator's NumPy back end (the same bits as the GPU: the
routines use only exactly rounded primitives). A development tool, too slow for the suite
(about 1 us per input on one core; exp's 2.2e9 inputs take ~40 min):

    python tests/math_exhaustive.py exp [STRIDE]      # every STRIDE-th f32 input
    python tests/math_exhaustive.py tanh [STRIDE] [FROM] [-v]  # |x| >= FROM; -v: per chunk

The reference is NumPy in float64 (exp, tanh: good to an f64 ulp, ~2^-29 of an f32 ulp); the
error is |got - ref| / ulp(ref) in f32, with the subnormal ulp below the normal range.
tests/test_math_native_bounds.py runs the same sweep with a large stride and pins the
results recorded in the routines' docs.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# routine -> (reference in f64, the largest |x| whose result is not a constant of the
# routine's (exp: 0 below -104 and inf above 89; tanh: +-1 from 9.02 on), symmetric)
REFS = {"exp": (np.exp, 104.0), "tanh": (np.tanh, 9.125), "exp2": (np.exp2, 151.0)}
# odd routines computed on |x| with the sign copied: one sign suffices
ODD = {"tanh"}


def ulp_error(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    e = np.maximum(np.frexp(np.abs(ref))[1].astype(np.int64) - 1, -126)
    with np.errstate(all="ignore"):
        err = np.abs(got.astype(np.float64) - ref) / np.ldexp(1.0, e - 23)
        rounded = ref.astype(np.float32)  # an overflowing result must be inf
    return np.where(np.isinf(rounded), np.where(got == rounded, 0.0, np.inf), err)


def sweep(name: str, stride: int = 1, chunk: int = 1 << 21, lo_bits: int = 0,
          hi_bits: int | None = None, log=None):
    """(max ulp error, its input, inputs seen) over every stride-th f32 of both signs with
    |x| in [lo_bits, hi_bits] (bit patterns; default: 0 to the routine's limit)."""
    from oxidec import mathlib
    ref_fn, limit = REFS[name]
    run = mathlib._runner(name, "f32")
    top = int(np.float32(limit).view(np.uint32)) if hi_bits is None else hi_bits
    worst, where, seen = 0.0, None, 0
    for sign in ((0,) if name in ODD else (0, 1)):
        for start in range(lo_bits, top + 1, chunk * stride):
            bits = np.arange(start, min(start + chunk * stride, top + 1), stride,
                             dtype=np.uint32)
            x = (bits | np.uint32(sign << 31)).view(np.float32)
            got = np.asarray(run.run([x]), np.float32)
            err = ulp_error(got, ref_fn(x.astype(np.float64)))
            i = int(np.argmax(err))
            if err[i] > worst:
                worst, where = float(err[i]), float(x[i])
            seen += x.size
            if log:
                log(f"{name} sign {sign} bits {start:#010x}..{int(bits[-1]):#010x}: chunk max "
                    f"{float(err[i]):.4f} at {float(x[i])!r}; so far {worst:.4f} at {where!r}")
    return worst, where, seen


def main() -> None:
    name = sys.argv[1]
    args = [a for a in sys.argv[2:] if a != "-v"]
    stride = int(args[0]) if args else 1
    lo = float(args[1]) if len(args) > 1 else 0.0  # the smallest |x| swept
    t0 = time.time()
    log = (lambda line: print(line, flush=True)) if "-v" in sys.argv else None
    worst, where, seen = sweep(name, stride, lo_bits=int(np.float32(lo).view(np.uint32)),
                               log=log)
    print(f"{name}: max {worst:.4f} ulp at x = {where!r} ({where.hex() if where else ''}); "
          f"{seen} inputs, stride {stride}, {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
