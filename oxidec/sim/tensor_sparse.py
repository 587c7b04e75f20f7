"""Sparse integer MMA on the simulator: `mma.sp` / `mma.sp::ordered_metadata` (rows:
oxidec/device_api/tensor.py, `MMA_SP`).

A is given compressed: the fragment of a dense A with half the columns (the layout of the
dense shape with k/2), holding the two nonzeros of every group of four columns (of four
pairs of columns for 4-bit types). The metadata gives, per group, the 2-bit indices of the
two kept columns (bits 0-1 the first, 2-3 the second). Which lanes supply which rows'
metadata depends on the selector; the simulator runs the case whose result does not depend
on it: every lane passes the same metadata with the same 4-bit pattern for every group
(`0x4444_4444`: columns 0 and 1 of each group). Other metadata is a clear "GPU only" error.
"""
from __future__ import annotations

import numpy as np

from ..device_api.tensor import MMA_SP
from .errors import SimError
from .intrinsics import INTRINSICS
from .tensor import ACC, FORMAT, LAYOUTS, TQ, G, _elements, _gather, _map, _regs, _warps

# B of the large sparse shapes (4 registers): the dense layout continued along k
B_LARGE = {
    ("m16n8k64", "8"): (64, 8, 4, 4, lambda r, e: (4 * TQ + e + 16 * r, G)),
    ("m16n8k128", "4"): (128, 8, 4, 8, lambda r, e: (8 * TQ + e + 32 * r, G)),
}
PATTERNS = {0x4: (0, 1), 0x8: (0, 2), 0xC: (0, 3), 0x9: (1, 2), 0xD: (1, 3), 0xE: (2, 3)}


def _pattern(x, meta: np.ndarray, name: str) -> tuple[int, int]:
    m = np.unique(meta.astype(np.uint32))
    nib = int(m[0]) & 0xF if m.size == 1 else -1
    if m.size != 1 or int(m[0]) != nib * 0x1111_1111 or nib not in PATTERNS:
        raise SimError(f"`{name}`: the simulator runs sparse MMA only with the same metadata "
                       "in every lane and one valid 2-of-4 pattern for every group (e.g. "
                       "0x4444_4444); other metadata is GPU only")
    return PATTERNS[nib]


def _mma_sp(ptx: str):
    parts = ptx.split(".")
    shape, acc, a_fmt, b_fmt = parts[1:5]
    sat = parts[-1] == "satfinite"
    k = int(shape.split("k")[1])
    fmt = FORMAT[a_fmt]
    a_spec = LAYOUTS[(f"m16n8k{k // 2}", fmt)][0]
    b_spec = B_LARGE.get((shape, fmt)) or LAYOUTS[(shape, fmt)][1]
    c_spec = ACC[acc]
    chunk = 2 if fmt == "4" else 1  # 4-bit values are kept in pairs

    def fn(x, args, arg_tys, result_ty):
        c, a, b, meta, _selector = args
        wid, lane = _warps(x, ptx)
        i0, i1 = _pattern(x, meta, ptx)
        nw = x.nwarps
        Ac = _gather(_elements(_regs(a, a_spec[2]), a_fmt, a_spec[3]), wid, lane, nw, a_spec)
        A = np.zeros((nw, 16, k), np.int64)
        for g in range(k // (4 * chunk)):
            for kept, idx in ((0, i0), (1, i1)):
                src = (2 * g + kept) * chunk
                dst = (4 * g + idx) * chunk
                A[:, :, dst:dst + chunk] = Ac[:, :, src:src + chunk]
        B = _gather(_elements(_regs(b, b_spec[2]), b_fmt, b_spec[3]), wid, lane, nw, b_spec)
        C = _gather(_regs(c, 4).astype(np.int64)[..., None], wid, lane, nw, c_spec)
        D = np.einsum("wik,wkj->wij", A, B) + C
        m = _map(c_spec[2], c_spec[3], c_spec[4])[lane]
        d = D[np.broadcast_to(wid[:, None, None], m.shape[:3]), m[..., 0], m[..., 1]][..., 0]
        if sat:
            return np.clip(d, -2**31, 2**31 - 1).astype(np.int32)
        return (d & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    return fn


for _ptx, *_ in MMA_SP.values():
    INTRINSICS[_ptx] = _mma_sp(_ptx)
