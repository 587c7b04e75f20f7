"""The NumPy reference pieces the integer `mma` tests share (test_mma_8x8_ints,
test_mma_narrow_ints, test_mma_sparse): operands read as signed or unsigned, the s32
accumulation that wraps or saturates, and where a lane's accumulator registers sit in a
16x8 tile."""
from __future__ import annotations

import numpy as np


def as_signed(x: np.ndarray, bits: int) -> np.ndarray:
    """`bits`-wide unsigned values read as two's complement."""
    return np.where(x >= 1 << (bits - 1), x - (1 << bits), x)


def s32_result(d: np.ndarray, saturate: bool) -> np.ndarray:
    """An exact sum as the s32 accumulator holds it: `.satfinite` clamps, else it wraps."""
    return np.clip(d, -2**31, 2**31 - 1) if saturate else (d + 2**31) % 2**32 - 2**31


def c_pos(lane: int, r: int) -> tuple[int, int]:
    """(row, column) of accumulator register `r` of `lane` in a 16x8 tile."""
    return lane // 4 + 8 * (r >> 1), 2 * (lane % 4) + (r & 1)
