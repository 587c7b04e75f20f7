"""Memory: a registry of byte regions addressed by 64-bit "addresses".

    address = region_id << 40 | byte_offset

Region 0 is the null region (any access is a null pointer dereference). Global buffers
(one per array argument) and the per-batch shared memory are NumPy byte views, so kernels
write the caller's arrays in place. Region ids from `LOCAL_BASE` on name thread-local
variables (`&mut x` of a local): local `g` is region `LOCAL_BASE + g`, and an access reads
the accessing lane's own slot of that local (see layout.ByteMap).

Shared memory of a batch of blocks is one region of `nblocks * block_bytes` bytes; a lane
may only touch its own block's slice, which every access checks.

All accesses take an address array of any shape whose first axis is the lanes (`lanes`
gives each row's batch lane id); a bad address raises `LaneFault` with the faulting lanes.
"""
from __future__ import annotations

import numpy as np

from .. import types as T
from .errors import LaneFault, SimError
from .layout import BOOL_DTYPE, assemble, byte_map, flatten, leaves, scalar_dtype

REGION_SHIFT = 40
OFFSET_MASK = np.uint64((1 << REGION_SHIFT) - 1)
LOCAL_BASE = 1 << 22
_SHIFT = np.uint64(REGION_SHIFT)


def make_address(region: int, offset: int = 0) -> int:
    return (region << REGION_SHIFT) | offset


class Region:
    """A byte buffer: an argument array, a static, or a batch's shared memory."""

    def __init__(self, rid: int, buf: np.ndarray, name: str, kind: str, writable: bool,
                 block_bytes: int = 0):
        self.rid = rid
        self.buf = buf  # 1-D uint8
        self.name = name
        self.kind = kind  # "global" | "shared"
        self.writable = writable
        self.block_bytes = block_bytes  # shared: bytes per block
        self._typed: dict[np.dtype, np.ndarray] = {}

    def typed(self, dtype: np.dtype) -> np.ndarray:
        view = self._typed.get(dtype)
        if view is None:
            k = dtype.itemsize
            view = self.buf[: self.buf.size // k * k].view(dtype)
            self._typed[dtype] = view
        return view

    def describe(self) -> str:
        return self.name


class Memory:
    """All regions of one launch; `batch` is the batch being executed (for local regions
    and the shared-memory block check)."""

    def __init__(self):
        self.regions: list[Region | None] = [None]
        self.batch = None

    # -- regions ---------------------------------------------------------------
    def add(self, buf: np.ndarray, name: str, kind: str = "global", writable: bool = True,
            block_bytes: int = 0) -> int:
        rid = len(self.regions)
        if rid >= LOCAL_BASE:
            raise SimError("too many memory regions")
        self.regions.append(Region(rid, buf, name, kind, writable, block_bytes))
        return rid

    def replace(self, rid: int, buf: np.ndarray, block_bytes: int) -> None:
        old = self.regions[rid]
        self.regions[rid] = Region(rid, buf, old.name, old.kind, True, block_bytes)

    # -- typed access ------------------------------------------------------------
    def load(self, cty: T.Ty, addr: np.ndarray, lanes: np.ndarray):
        """The value of canonical type cty at addr (shape (n,)) for each lane."""
        dt = scalar_dtype(cty)
        if dt is not None:
            return self.load_scalar(dt, addr, lanes)
        n = addr.shape[0]
        vals = []
        for lf in leaves(cty):
            a = addr.reshape((n,) + (1,) * len(lf.dims)) + lf.offsets
            vals.append(self.load_scalar(lf.dtype, a, lanes))
        return assemble(cty, iter(vals))

    def store(self, cty: T.Ty, addr: np.ndarray, value, lanes: np.ndarray) -> None:
        dt = scalar_dtype(cty)
        if dt is not None:
            self.store_scalar(dt, addr, value, lanes)
            return
        n = addr.shape[0]
        for lf, v in zip(leaves(cty), flatten(value)):
            a = addr.reshape((n,) + (1,) * len(lf.dims)) + lf.offsets
            self.store_scalar(lf.dtype, a, v, lanes)

    # -- atomics -------------------------------------------------------------------------
    def atomic_rmw(self, dtype: np.dtype, addr: np.ndarray, value: np.ndarray, lanes: np.ndarray,
                   op: str, compare: np.ndarray | None = None) -> np.ndarray:
        """Read-modify-write of one scalar per lane, as if the lanes went one after another in
        lane (linear thread) order; returns each lane's old value. op: add sub and or xor min
        max exch cas (cas: store value where the current value == compare)."""
        old = self.load_scalar(dtype, addr, lanes)  # validates every address
        n = addr.shape[0]
        value = np.broadcast_to(np.asarray(value, dtype=dtype), (n,))
        order = np.argsort(addr, kind="stable")
        sa = addr[order]
        starts = np.flatnonzero(np.r_[True, sa[1:] != sa[:-1]])
        ends = np.r_[starts[1:], n]
        seq_old = old[order].copy()
        v = value[order]
        cmp = None if compare is None else np.broadcast_to(compare, (n,))[order]
        final = np.empty(starts.size, dtype=dtype)
        single = (ends - starts) == 1
        if single.any():  # lanes alone at their address: one vectorised step
            s = starts[single]
            final[single] = _rmw_step(op, seq_old[s], v[s], None if cmp is None else cmp[s])
        ufunc = _ACCUMULATE.get(op)
        if ufunc is not None and dtype.kind == "f" and op in ("min", "max"):
            ufunc = np.fmin if op == "min" else np.fmax
        for g in np.flatnonzero(~single):  # lanes sharing an address: in lane order
            s, e = int(starts[g]), int(ends[g])
            if ufunc is not None:  # a sequential scan (accumulate rounds step by step)
                seq = ufunc.accumulate(np.concatenate((seq_old[s:s + 1], v[s:e])), dtype=dtype)
                seq_old[s:e] = seq[:-1]
                final[g] = seq[-1]
                continue
            cur = seq_old[s]
            for j in range(s, e):
                seq_old[j] = cur
                cur = _rmw_step(op, np.array([cur]), v[j:j + 1],
                                None if cmp is None else cmp[j:j + 1])[0]
            final[g] = cur
        self.store_scalar(dtype, sa[starts], final, lanes[order][starts])
        out = np.empty_like(seq_old)
        out[order] = seq_old
        return out

    # -- scalar access -----------------------------------------------------------
    # The common case, every address in one region, costs two reductions (min, max) to
    # find that out and to bounds-check, one (or) to check alignment, and the gather.

    def load_scalar(self, dtype: np.dtype, addr: np.ndarray, lanes: np.ndarray) -> np.ndarray:
        if addr.size == 0:
            return np.zeros(addr.shape, dtype)
        r, hi = _one_region(addr)
        if r is not None:
            off = addr - np.uint64(r << REGION_SHIFT) if r else addr
            return self._load_in(r, dtype, off, _lanes_like(lanes, addr.shape), hi)
        out = np.empty(addr.shape, dtype)
        lane_b = _lanes_like(lanes, addr.shape)
        rid = addr >> _SHIFT
        off = addr & OFFSET_MASK
        for r in np.unique(rid):
            m = rid == r
            o = off[m]
            out[m] = self._load_in(int(r), dtype, o, lane_b[m], int(o.max()))
        return out

    def store_scalar(self, dtype: np.dtype, addr: np.ndarray, value, lanes: np.ndarray) -> None:
        if addr.size == 0:
            return
        value = np.asarray(value)
        r, hi = _one_region(addr)
        if r is not None:
            off = addr - np.uint64(r << REGION_SHIFT) if r else addr
            self._store_in(r, dtype, off, value, _lanes_like(lanes, addr.shape), hi)
            return
        value = np.broadcast_to(value, addr.shape)
        lane_b = _lanes_like(lanes, addr.shape)
        rid = addr >> _SHIFT
        off = addr & OFFSET_MASK
        for r in np.unique(rid):
            m = rid == r
            o = off[m]
            self._store_in(int(r), dtype, o, value[m], lane_b[m], int(o.max()))

    # -- within one region ---------------------------------------------------------
    def _region(self, rid: int, off, lanes) -> Region:
        region = self.regions[rid] if rid < len(self.regions) else None
        if region is None:
            if rid == 0:
                raise LaneFault("null pointer dereference", lanes=lanes.reshape(-1))
            raise LaneFault(f"illegal memory access: address {rid << REGION_SHIFT:#x} "
                            "is not in any buffer", lanes=lanes.reshape(-1))
        return region

    def _index(self, region: Region, dtype: np.dtype, off: np.ndarray, lanes,
               hi: int) -> np.ndarray:
        """Element indices of the byte offsets `off` (hi: their maximum), checked."""
        k = dtype.itemsize
        if k > 1:
            if int(np.bitwise_or.reduce(off, axis=None)) & (k - 1):
                bad = np.flatnonzero(((off & np.uint64(k - 1)) != 0).reshape(-1))
                o = int(off.reshape(-1)[bad[0]])
                raise LaneFault(f"misaligned {k}-byte access at byte offset {o} of "
                                f"{region.describe()}", lanes=lanes.reshape(-1)[bad])
            idx = off >> np.uint64(k.bit_length() - 1)
        else:
            idx = off
        if region.kind == "shared":  # only the lane's own block's slice
            bb = region.block_bytes
            own = self.batch.lane_block[lanes]
            wrong = (off - own * np.uint64(bb)) >= np.uint64(bb)
            if wrong.any():
                bad = np.flatnonzero(wrong.reshape(-1))
                o = int(off.reshape(-1)[bad[0]]) - int(own.reshape(-1)[bad[0]]) * bb
                raise LaneFault(f"illegal memory access: shared memory byte offset {o} is out "
                                f"of bounds of the block's {bb} bytes",
                                lanes=lanes.reshape(-1)[bad])
            return idx
        if hi + k > region.buf.size:
            bad = np.flatnonzero((off + np.uint64(k) > np.uint64(region.buf.size)).reshape(-1))
            o = int(off.reshape(-1)[bad[0]])
            raise LaneFault(f"illegal memory access: byte offset {o} is out of bounds of "
                            f"{region.describe()} ({region.buf.size} bytes)",
                            lanes=lanes.reshape(-1)[bad])
        return idx

    def _load_in(self, rid: int, dtype: np.dtype, off, lanes, hi: int) -> np.ndarray:
        if rid >= LOCAL_BASE:
            return self._local_access(rid - LOCAL_BASE, dtype, off, lanes, None)
        region = self._region(rid, off, lanes)
        if dtype == BOOL_DTYPE:
            return region.typed(np.dtype(np.uint8))[self._index(region, dtype, off, lanes, hi)] != 0
        return region.typed(dtype)[self._index(region, dtype, off, lanes, hi)]

    def _store_in(self, rid: int, dtype: np.dtype, off, value, lanes, hi: int) -> None:
        if rid >= LOCAL_BASE:
            self._local_access(rid - LOCAL_BASE, dtype, off, lanes, value)
            return
        region = self._region(rid, off, lanes)
        idx = self._index(region, dtype, off, lanes, hi)
        if not region.writable:
            raise LaneFault(f"write to read-only memory ({region.describe()})",
                            lanes=lanes.reshape(-1))
        if dtype == BOOL_DTYPE:
            region.typed(np.dtype(np.uint8))[idx] = value
        else:
            region.typed(dtype)[idx] = value

    def _local_access(self, g: int, dtype: np.dtype, off, lanes, value):
        """Load (value None) or store through a reference to local `g` of the batch."""
        batch = self.batch
        cty = batch.local_ctys[g]
        bm = byte_map(cty)
        flat_off = off.reshape(-1).astype(np.int64)
        flat_lanes = lanes.reshape(-1)
        size = bm.leaf.size
        inb = flat_off < size
        leaf_ids = np.where(inb, bm.leaf[np.minimum(flat_off, size - 1)], -1)
        storage = flatten(batch.local(g))
        lfs = leaves(cty)
        ok = leaf_ids >= 0
        if ok.all():
            ok = np.array([lfs[j].dtype == dtype for j in range(len(lfs))])[leaf_ids]
        if not ok.all():
            bad = np.flatnonzero(~ok)
            raise LaneFault(f"illegal memory access: a {dtype.itemsize}-byte {dtype} access "
                            f"at byte {int(flat_off[bad[0]])} of a local variable of type "
                            f"`{cty}`", lanes=flat_lanes[bad])
        elem = bm.elem[flat_off]
        out = None if value is None else np.broadcast_to(np.asarray(value), off.shape).reshape(-1)
        result = np.empty(flat_off.shape, dtype) if value is None else None
        for j in np.unique(leaf_ids):
            m = leaf_ids == j
            arr = storage[j].reshape(storage[j].shape[0], -1)
            if value is None:
                result[m] = arr[flat_lanes[m], elem[m]]
            else:
                arr[flat_lanes[m], elem[m]] = out[m]
        if value is None:
            return result.reshape(off.shape)
        return None


_ACCUMULATE = {"add": np.add, "sub": np.subtract, "and": np.bitwise_and, "or": np.bitwise_or,
               "xor": np.bitwise_xor, "min": np.minimum, "max": np.maximum}


def _rmw_step(op: str, cur: np.ndarray, v: np.ndarray, cmp) -> np.ndarray:
    if op == "add":
        return cur + v
    if op == "sub":
        return cur - v
    if op == "and":
        return cur & v
    if op == "or":
        return cur | v
    if op == "xor":
        return cur ^ v
    if op == "min":
        return np.fmin(cur, v) if cur.dtype.kind == "f" else np.minimum(cur, v)
    if op == "max":
        return np.fmax(cur, v) if cur.dtype.kind == "f" else np.maximum(cur, v)
    if op == "exch":
        return v.copy()
    if op == "cas":
        return np.where(cur == cmp, v, cur)
    raise SimError(f"unknown atomic operation `{op}`")


def _one_region(addr: np.ndarray) -> tuple[int | None, int]:
    """(region id, largest offset) when every address is in one region, else (None, 0)."""
    lo, hi = int(addr.min()), int(addr.max())
    r = lo >> REGION_SHIFT
    if hi >> REGION_SHIFT != r:
        return None, 0
    return r, hi - (r << REGION_SHIFT)


def _lanes_like(lanes: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    if len(shape) == 1:
        return lanes
    return np.broadcast_to(lanes.reshape((shape[0],) + (1,) * (len(shape) - 1)), shape)
