"""The GPU's NaN results, so that the simulator gives the H200's bits (tests/gpu_ops_diff).

Rust leaves the bits of a NaN made by arithmetic unspecified, so each target picks; the PTX
instructions oxidec emits pick as follows (measured op by op on the H200 against this module):
- f32 arithmetic (`add sub mul div sqrt fma min max`, the `cvt` roundings) returns the
  canonical NaN 0x7fffffff whatever the operands were;
- f64 `add sub mul min max` return the last NaN operand, quieted (`add(qa, qb)` is `qb`),
  `div` and `fma` the first (`div(qa, qb)` is `qa`, `fma(0, qb, qc)` is `qb`); a NaN made
  from no NaN (`0 * inf`, `sqrt(-1)`) is 0xfff8000000000000, NumPy's too;
- `min`/`max` order -0 below +0 (f32 and f64), and return the other operand for one NaN.
`neg`, `abs` and `copysign` are sign-bit operations in Rust and in the emitted PTX: no rule.
"""
from __future__ import annotations

import numpy as np

F32_CANONICAL = np.uint32(0x7FFFFFFF)
F64_QUIET = np.uint64(1 << 51)


def gpu_nans(result: np.ndarray, *operands: np.ndarray, first: bool = False) -> np.ndarray:
    """`result` of a float operation on `operands`, with the NaNs the GPU gives (for f64,
    the last NaN operand wins, or the `first`)."""
    if result.dtype.kind != "f":
        return result
    nan = np.isnan(result)
    if not nan.any():
        return result
    out = np.array(result, copy=True)
    if out.dtype == np.float32:
        out.view(np.uint32)[nan] = F32_CANONICAL
        return out
    if out.dtype == np.float64:
        bits = out.view(np.uint64)
        for op in (operands[::-1] if first else operands):  # the one written last wins
            op = np.broadcast_to(np.asarray(op, dtype=np.float64), out.shape)
            take = nan & np.isnan(op)
            bits[take] = op.view(np.uint64)[take] | F64_QUIET
    return out


def signed_zero_order(result: np.ndarray, a: np.ndarray, b: np.ndarray, lowest: bool):
    """min (`lowest`) / max of two zeros of different signs: -0 / +0, as PTX min/max."""
    if result.dtype.kind != "f":
        return result
    both_zero = (a == 0) & (b == 0)
    if not both_zero.any():
        return result
    signed = np.signbit(a) | np.signbit(b) if lowest else np.signbit(a) & np.signbit(b)
    zero = np.where(signed, -0.0, 0.0).astype(result.dtype)
    return np.where(both_zero, zero, result)
