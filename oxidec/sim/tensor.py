"""Warp-level matrix instructions on the simulator: `mma.sync`, `ldmatrix`, `stmatrix`,
`movmatrix` (rows: oxidec/device_api/tensor.py).

Each runs once per warp on the warp's 32 lanes together (all 32 must execute it: it is
`.sync.aligned`, and a warp with fewer lanes is an error here). The fragment layouts are
PTX's ("Matrix Fragments for mma.m16n8k16" and the sibling sections); with g = lane / 4
and t = lane % 4, `LAYOUTS` maps every (lane, register, element) to its (row, column).

Products are exact (bf16/f16/tf32 products fit in float64; integers in int64) and a dot
product is summed in float64 and rounded once, to f32 (or f16); the tensor core's order and
intermediate roundings are not defined by PTX, so float results agree with the GPU to a
tolerance. tf32 operands use their top 19 bits, as the hardware does. Integer MMAs wrap to
s32 (`.satfinite`: clamp), exactly as on the GPU.
"""
from __future__ import annotations

import numpy as np

from ..device_api.tensor import LDMATRIX, MMA, STMATRIX
from .errors import LaneFault, SimError
from .fp8 import decode as fp8_decode
from .intrinsics import INTRINSICS

LANE = np.arange(32)
G, TQ = LANE // 4, LANE % 4


def _map(nregs: int, nelem: int, rc) -> np.ndarray:
    """(32, nregs, nelem, 2): the (row, col) of each lane's register r, element e."""
    out = np.zeros((32, nregs, nelem, 2), np.int64)
    for r in range(nregs):
        for e in range(nelem):
            row, col = rc(r, e)
            out[:, r, e, 0], out[:, r, e, 1] = row, col
    return out


# operand fragments, by (shape, element format): (rows, cols, regs, elements per reg, map)
def _a16(r, e):   # 16-bit A of m16n8k16
    return G + 8 * (r & 1), 2 * TQ + e + 8 * (r >> 1)


def _b16(r, e):
    return 2 * TQ + e + 8 * r, G


def _a8_16(r, e):  # 16-bit A of m16n8k8
    return G + 8 * r, 2 * TQ + e


def _acc(r, e):  # f32/s32 accumulator: 4 registers of one element
    return G + 8 * (r >> 1), 2 * TQ + (r & 1)


LAYOUTS = {
    ("m16n8k16", "16"): ((16, 16, 4, 2, _a16), (16, 8, 2, 2, _b16)),
    ("m16n8k8", "16"): ((16, 8, 2, 2, _a8_16), (8, 8, 1, 2, lambda r, e: (2 * TQ + e, G))),
    ("m16n8k8", "tf32"): ((16, 8, 4, 1, lambda r, e: (G + 8 * (r & 1), TQ + 4 * (r >> 1))),
                          (8, 8, 2, 1, lambda r, e: (TQ + 4 * r, G))),
    ("m16n8k4", "tf32"): ((16, 4, 2, 1, lambda r, e: (G + 8 * r, TQ)),
                          (4, 8, 1, 1, lambda r, e: (TQ, G))),
    ("m16n8k32", "8"): ((16, 32, 4, 4, lambda r, e: (G + 8 * (r & 1), 4 * TQ + e + 16 * (r >> 1))),
                        (32, 8, 2, 4, lambda r, e: (4 * TQ + e + 16 * r, G))),
    ("m16n8k16", "8"): ((16, 16, 2, 4, lambda r, e: (G + 8 * r, 4 * TQ + e)),
                        (16, 8, 1, 4, lambda r, e: (4 * TQ + e, G))),
    ("m8n8k4", "f64"): ((8, 4, 1, 1, lambda r, e: (G, TQ)), (4, 8, 1, 1, lambda r, e: (TQ, G))),
    # 4-bit: the 8-bit layouts with 8 elements to a register (k doubled)
    ("m16n8k64", "4"): ((16, 64, 4, 8, lambda r, e: (G + 8 * (r & 1), 8 * TQ + e + 32 * (r >> 1))),
                        (64, 8, 2, 8, lambda r, e: (8 * TQ + e + 32 * r, G))),
    ("m16n8k32", "4"): ((16, 32, 2, 8, lambda r, e: (G + 8 * r, 8 * TQ + e)),
                        (32, 8, 1, 8, lambda r, e: (8 * TQ + e, G))),
    # 1-bit: 32 elements to a register (bit e of the register is element e)
    ("m16n8k256", "1"): ((16, 256, 4, 32,
                          lambda r, e: (G + 8 * (r & 1), 32 * TQ + e + 128 * (r >> 1))),
                         (256, 8, 2, 32, lambda r, e: (32 * TQ + e + 128 * r, G))),
    ("m16n8k128", "1"): ((16, 128, 2, 32, lambda r, e: (G + 8 * r, 32 * TQ + e)),
                         (128, 8, 1, 32, lambda r, e: (32 * TQ + e, G))),
    # the 8x8 integer shapes: A one register of row g, B one of column g
    ("m8n8k16", "8"): ((8, 16, 1, 4, lambda r, e: (G, 4 * TQ + e)),
                       (16, 8, 1, 4, lambda r, e: (4 * TQ + e, G))),
    ("m8n8k32", "4"): ((8, 32, 1, 8, lambda r, e: (G, 8 * TQ + e)),
                       (32, 8, 1, 8, lambda r, e: (8 * TQ + e, G))),
    ("m8n8k128", "1"): ((8, 128, 1, 32, lambda r, e: (G, 32 * TQ + e)),
                        (128, 8, 1, 32, lambda r, e: (32 * TQ + e, G))),
}
ACC_8X8 = (8, 8, 2, 1, lambda r, e: (G, 2 * TQ + r))  # an m8n8 accumulator: row g, 2 columns
ACC = {"f32": (16, 8, 4, 1, _acc), "s32": (16, 8, 4, 1, _acc),
       "f16": (16, 8, 2, 2, lambda r, e: (G + 8 * r, 2 * TQ + e)),
       "f64": ACC_8X8}
FORMAT = {"bf16": "16", "f16": "16", "tf32": "tf32", "s8": "8", "u8": "8", "f64": "f64",
          "s4": "4", "u4": "4", "b1": "1", "e4m3": "8", "e5m2": "8"}


def _warps(x, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(warp slot, lane) of every executing lane; every warp must execute with 32 lanes."""
    wid = x.warp_index[x.lanes]
    lane = x.lane_id[x.lanes]
    counts = np.bincount(wid, minlength=x.nwarps)
    if (counts[wid] != 32).any():
        k = int(np.flatnonzero(counts[wid] != 32)[0])
        thread, block = x.coords(int(x.lanes[k]))
        raise SimError(f"`{name}` is executed by {int(counts[wid[k]])} lanes of the warp of "
                       f"thread {thread} of block {block}: all 32 lanes of the warp must "
                       "execute it together")
    return wid, lane


def _regs(v: np.ndarray, n: int) -> np.ndarray:
    return v.reshape(v.shape[0], n)


def _elements(regs: np.ndarray, fmt: str, nelem: int) -> np.ndarray:
    """(n, nregs) registers -> (n, nregs, nelem) values as float64 / int64."""
    if fmt == "f64":
        return regs.astype(np.float64)[..., None]
    u = regs.astype(np.uint32)
    if fmt == "tf32":
        return (u & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)[..., None]
    if fmt in ("bf16", "f16"):
        halves = np.stack([u & np.uint32(0xFFFF), u >> np.uint32(16)], axis=-1)
        if fmt == "bf16":
            return (halves << np.uint32(16)).view(np.float32).astype(np.float64)
        return halves.astype(np.uint16).view(np.float16).astype(np.float64)
    width = 1 if fmt == "b1" else 4 if fmt in ("s4", "u4") else 8
    top = np.uint32((1 << width) - 1)
    parts = np.stack([(u >> np.uint32(width * j)) & top for j in range(nelem)], -1)
    if fmt in ("e4m3", "e5m2"):  # fp8: exact values
        return fp8_decode(parts.astype(np.uint8), fmt)
    parts = parts.astype(np.int64)
    if fmt in ("s8", "s4"):
        return np.where(parts >= 1 << (width - 1), parts - (1 << width), parts)
    return parts


def _gather(vals: np.ndarray, wid, lane, nw: int, spec) -> np.ndarray:
    rows, cols, nregs, nelem, rc = spec
    m = _map(nregs, nelem, rc)[lane]  # (n, nregs, nelem, 2)
    out = np.zeros((nw, rows, cols), vals.dtype)
    out[np.broadcast_to(wid[:, None, None], m.shape[:3]), m[..., 0], m[..., 1]] = vals
    return out


def _mma(ptx: str, c_ty: str):
    parts = ptx.split(".")
    shape, acc, a_fmt, b_fmt = parts[1:5]
    sat = parts[-1] == "satfinite"
    bit_op = parts[-1] if parts[-1] in ("and", "xor") else None  # b1: popc of AND / XOR
    a_spec, b_spec = LAYOUTS[(shape, FORMAT[a_fmt])]
    c_spec = ACC_8X8 if shape.startswith("m8n8") else ACC[acc]

    def fn(x, args, arg_tys, result_ty):
        c, a, b = args
        wid, lane = _warps(x, ptx)
        nw = x.nwarps
        A = _gather(_elements(_regs(a, a_spec[2]), a_fmt, a_spec[3]), wid, lane, nw, a_spec)
        B = _gather(_elements(_regs(b, b_spec[2]), b_fmt, b_spec[3]), wid, lane, nw, b_spec)
        if acc == "f16":
            C = _gather(_elements(_regs(c, 2), "f16", 2), wid, lane, nw, c_spec)
        else:
            cv = _regs(c, c_spec[2])
            C = _gather((cv.astype(np.int64) if acc == "s32" else cv.astype(np.float64))
                        [..., None], wid, lane, nw, c_spec)
        P = np.einsum("wik,wkj->wij", A, B)
        if bit_op == "xor":  # a ^ b = a + b - 2ab on bits
            P = A.sum(2)[:, :, None] + B.sum(1)[:, None, :] - 2 * P
        D = P + C
        m = _map(c_spec[2], c_spec[3], c_spec[4])[lane]
        d = D[np.broadcast_to(wid[:, None, None], m.shape[:3]), m[..., 0], m[..., 1]]
        if acc == "s32":
            if sat:
                return np.clip(d[..., 0], -2**31, 2**31 - 1).astype(np.int32)
            return (d[..., 0] & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
        if acc == "f16":
            h = d.astype(np.float16).view(np.uint16).astype(np.uint32)
            return h[..., 0] | (h[..., 1] << np.uint32(16))
        return d[..., 0].astype(np.float32 if acc == "f32" else np.float64)
    return fn


def _rows_addresses(x, addr: np.ndarray, lane: np.ndarray, nmat: int, name: str):
    """The lanes that supply row addresses (lanes 0 .. 8*nmat-1), checked 16-byte aligned."""
    use = np.flatnonzero(lane < 8 * nmat)
    a = addr.astype(np.uint64)[use]
    bad = np.flatnonzero((a & np.uint64(15)) != 0)
    if bad.size:
        raise LaneFault(f"`{name}`: a matrix row address must be 16-byte aligned",
                        lanes=x.lanes[use[bad]])
    return use, a


def _fragment_index(trans: bool) -> tuple[np.ndarray, np.ndarray]:
    """For lane l and half h, the (row, col) of the 8x8 matrix its register holds."""
    h = np.arange(2)
    if trans:
        return 2 * TQ[:, None] + h, np.broadcast_to(G[:, None], (32, 2))
    return np.broadcast_to(G[:, None], (32, 2)), 2 * TQ[:, None] + h


def _ldmatrix(nmat: int, trans: bool, name: str):
    def fn(x, args, arg_tys, result_ty):
        wid, lane = _warps(x, name)
        use, a = _rows_addresses(x, args[0], lane, nmat, name)
        rows = x.mem.load_scalar(np.dtype(np.uint16), a[:, None] + np.uint64(2) * np.arange(
            8, dtype=np.uint64), x.lanes[use][:, None])
        table = np.zeros((x.nwarps, 32, 8), np.uint16)
        table[wid[use], lane[use]] = rows
        r, c = _fragment_index(trans)
        out = np.zeros((x.n, nmat), np.uint32)
        for m in range(nmat):
            mat = table[:, 8 * m:8 * m + 8, :]  # (nw, 8, 8)
            vals = mat[wid[:, None], r[lane], c[lane]].astype(np.uint32)  # (n, 2)
            out[:, m] = vals[:, 0] | (vals[:, 1] << np.uint32(16))
        return out[:, 0] if nmat == 1 else out
    return fn


def _stmatrix(nmat: int, trans: bool, name: str):
    def fn(x, args, arg_tys, result_ty):
        wid, lane = _warps(x, name)
        regs = np.stack([np.asarray(v, np.uint32) for v in args[1:]], axis=1)  # (n, nmat)
        use, a = _rows_addresses(x, args[0], lane, nmat, name)
        r, c = _fragment_index(trans)
        table = np.zeros((x.nwarps, nmat, 8, 8), np.uint16)
        for m in range(nmat):
            for h in range(2):
                table[wid, m, r[lane, h], c[lane, h]] = (regs[:, m] >> np.uint32(16 * h)) \
                    & np.uint32(0xFFFF)
        rows = table[wid[use], lane[use] // 8, lane[use] % 8]  # (k, 8)
        x.mem.store_scalar(np.dtype(np.uint16), a[:, None] + np.uint64(2) * np.arange(
            8, dtype=np.uint64), rows, x.lanes[use][:, None])
    return fn


def _movmatrix(x, args, arg_tys, result_ty):
    wid, lane = _warps(x, "movmatrix")
    v = args[0].astype(np.uint32)
    r, c = _fragment_index(False)
    mat = np.zeros((x.nwarps, 8, 8), np.uint32)
    for h in range(2):
        mat[wid, r[lane, h], c[lane, h]] = (v >> np.uint32(16 * h)) & np.uint32(0xFFFF)
    rt, ct = _fragment_index(True)
    vals = mat[wid[:, None], rt[lane], ct[lane]]
    return vals[:, 0] | (vals[:, 1] << np.uint32(16))


def _register() -> None:
    for ptx, c_ty, *_ in MMA.values():
        INTRINSICS[ptx] = _mma(ptx, c_ty)
    for name, (n, t) in LDMATRIX.items():
        INTRINSICS[f"ldmatrix.x{n}{'.trans' if t else ''}"] = _ldmatrix(n, t, name)
    for name, (n, t) in STMATRIX.items():
        INTRINSICS[f"stmatrix.x{n}{'.trans' if t else ''}"] = _stmatrix(n, t, name)
    INTRINSICS["movmatrix.trans"] = _movmatrix


_register()
