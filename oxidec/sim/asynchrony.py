"""cp.async and mbarrier on the simulator (rows: oxidec/device_api/asynchrony.py).

cp.async copies at once: the GPU may finish the copy any time before the thread's wait,
and finishing it at the copy is one of those times; so `commit_group`/`wait_group`/
`wait_all` have nothing left to do. The copy checks what the hardware requires: the
destination in shared memory, the source in global memory, both aligned to the copy size.

An mbarrier's 8 bytes hold the simulator's own encoding of its state:

    bit 63 phase parity, bits 61..62 = 0b10 initialised (never so in uninitialised shared
    memory, all ones here), bits 40..60 transaction bytes still expected (two's complement),
    bits 20..39 arrivals a phase expects, bits 0..19 arrivals pending

Arrivals of the lanes executing one statement go in linear thread order; the arrival that
brings the pending count to zero with no transaction bytes outstanding completes the phase
(the parity flips, the count starts again). A token is the state before its arrival, so a
wait on it is over when the barrier's parity differs from the token's. The threads of a
block run in lockstep here: a blocking `mbarrier_wait` whose phase has not completed when a
thread reaches it would need arrivals the simulator has not run yet, and is an error (the
kernel is GPU only); a `try_wait` spin loop on such a phase spins to the step limit.

`try_wait` / `try_wait.parity` on a phase not yet complete answer false: the time limit of
the potentially blocking wait passing at once, one of the outcomes the PTX ISA allows. The
H200 may instead answer true once the phase completes, and ptxas reads the answer as late
as it can (after later arrivals of the same thread), so a GPU run can see true there
(tests/run/test_mbarrier_parity.py). `test_wait` and a completed phase are exact.
"""
from __future__ import annotations

import numpy as np

from .errors import LaneFault, SimError
from .intrinsics import intrinsic
from .memory import LOCAL_BASE, REGION_SHIFT

PHASE = 1 << 63
VALID = 1 << 62
COUNT_MASK = (1 << 20) - 1
TX_SHIFT, TX_BITS = 40, 21


def _regions(x, addr: np.ndarray) -> np.ndarray:
    return (addr >> np.uint64(REGION_SHIFT)).astype(np.int64)


def _require_space(x, addr: np.ndarray, kind: str, what: str) -> None:
    rid = _regions(x, addr)
    ok = np.array([0 < r < LOCAL_BASE and r < len(x.mem.regions) and x.mem.regions[r] is not None
                   and x.mem.regions[r].kind == kind for r in rid.tolist()], dtype=bool)
    if not ok.all():
        bad = np.flatnonzero(~ok)
        raise LaneFault(f"{what} must point into {kind} memory", lanes=x.lanes[bad])


def _require_aligned(x, addr: np.ndarray, n: int, what: str) -> None:
    bad = np.flatnonzero((addr & np.uint64(n - 1)) != 0)
    if bad.size:
        raise LaneFault(f"misaligned {what}: cp.async of {n} bytes needs {n}-byte alignment",
                        lanes=x.lanes[bad])


def _copy(n: int):
    def copy(x, args, arg_tys, result_ty):
        dst, src = args[0].astype(np.uint64), args[1].astype(np.uint64)
        _require_space(x, dst, "shared", "the cp.async destination")
        _require_aligned(x, dst, n, "destination")
        size = np.full(x.n, n, np.int64) if len(args) == 2 else args[2].astype(np.int64)
        if (size > n).any() or (size < 0).any():
            bad = np.flatnonzero((size > n) | (size < 0))
            raise LaneFault(f"cp.async src_size {int(size[bad[0]])} is more than the "
                            f"{n} bytes it copies", lanes=x.lanes[bad])
        offsets = np.arange(n, dtype=np.uint64)
        take = offsets[None, :] < size[:, None].astype(np.uint64)
        reads = np.flatnonzero(take.any(axis=1))
        if reads.size:
            _require_space(x, src[reads], "global", "the cp.async source")
            _require_aligned(x, src[reads], n, "source")
        data = np.zeros((x.n, n), np.uint8)
        rows, cols = np.nonzero(take)
        if rows.size:
            data[rows, cols] = x.mem.load_scalar(np.dtype(np.uint8), src[rows] + offsets[cols],
                                                 x.lanes[rows])
        x.mem.store_scalar(np.dtype(np.uint8), dst[:, None] + offsets[None, :], data,
                           x.lanes)
    return copy


def register_copies() -> None:
    from .intrinsics import INTRINSICS
    for c, n in (("ca", 4), ("ca", 8), ("ca", 16), ("cg", 16)):
        INTRINSICS[f"cp.async.{c}.{n}"] = _copy(n)


# -- mbarrier ---------------------------------------------------------------------------

def _load(x, bar: np.ndarray, lanes) -> np.ndarray:
    return x.mem.load_scalar(np.dtype(np.uint64), bar, lanes)


def _fields(s: int) -> tuple[int, int, int, int]:
    tx = (s >> TX_SHIFT) & ((1 << TX_BITS) - 1)
    if tx >= 1 << (TX_BITS - 1):
        tx -= 1 << TX_BITS
    return s >> 63, (s >> 20) & COUNT_MASK, s & COUNT_MASK, tx


def _pack(phase: int, expected: int, pending: int, tx: int) -> int:
    return (phase << 63) | VALID | ((tx & ((1 << TX_BITS) - 1)) << TX_SHIFT) \
        | (expected << 20) | pending


def _check_valid(x, bar, states, name: str) -> None:
    bad = np.flatnonzero(((states >> np.uint64(61)) & np.uint64(3)) != 2)
    if bad.size:
        raise LaneFault(f"`{name}` on an mbarrier that is not initialised (no `mbarrier_init`, "
                        "or after `mbarrier_inval`)", lanes=x.lanes[bad])


def _shared_barrier(x, bar: np.ndarray, name: str) -> np.ndarray:
    bar = bar.astype(np.uint64)
    _require_space(x, bar, "shared", f"the barrier of `{name}`")
    return bar


def _arrive(x, bar: np.ndarray, tx: np.ndarray | None, name: str) -> np.ndarray:
    """Each lane in order: add its transaction bytes, arrive; the tokens."""
    bar = _shared_barrier(x, bar, name)
    _check_valid(x, bar, _load(x, bar, x.lanes), name)
    tokens = np.zeros(x.n, np.uint64)
    for addr in np.unique(bar):
        idx = np.flatnonzero(bar == addr)
        s = int(_load(x, bar[idx[:1]], x.lanes[idx[:1]])[0])
        for k in idx:
            phase, expected, pending, txc = _fields(s)
            txc += int(tx[k]) if tx is not None else 0
            tokens[k] = s
            pending -= 1
            if pending <= 0 and txc == 0:
                phase, pending = phase ^ 1, expected
            s = _pack(phase, expected, max(pending, 0), txc)
        x.mem.store_scalar(np.dtype(np.uint64), bar[idx[:1]], np.uint64(s), x.lanes[idx[:1]])
    return tokens


@intrinsic("mbarrier.init")
def _init(x, args, arg_tys, result_ty):
    bar = _shared_barrier(x, args[0], "mbarrier_init")
    count = args[1].astype(np.int64)
    bad = np.flatnonzero((count < 1) | (count > COUNT_MASK))
    if bad.size:
        raise LaneFault(f"mbarrier_init with a count of {int(count[bad[0]])} (1 ..= "
                        f"{COUNT_MASK})", lanes=x.lanes[bad])
    states = np.array([_pack(0, c, c, 0) for c in count.tolist()], np.uint64)
    x.mem.store_scalar(np.dtype(np.uint64), bar, states, x.lanes)


@intrinsic("mbarrier.inval")
def _inval(x, args, arg_tys, result_ty):
    bar = _shared_barrier(x, args[0], "mbarrier_inval")
    x.mem.store_scalar(np.dtype(np.uint64), bar, np.uint64(0), x.lanes)


@intrinsic("mbarrier.arrive")
def _arrive_op(x, args, arg_tys, result_ty):
    return _arrive(x, args[0], None, "mbarrier_arrive")


@intrinsic("mbarrier.arrive.expect_tx")
def _arrive_tx(x, args, arg_tys, result_ty):
    return _arrive(x, args[0], args[1].astype(np.int64), "mbarrier_arrive_expect_tx")


@intrinsic("mbarrier.expect_tx")
def _expect_tx(x, args, arg_tys, result_ty):
    bar = _shared_barrier(x, args[0], "mbarrier_expect_tx")
    _check_valid(x, bar, _load(x, bar, x.lanes), "mbarrier_expect_tx")
    for k in range(x.n):
        s = int(_load(x, bar[k:k + 1], x.lanes[k:k + 1])[0])
        phase, expected, pending, txc = _fields(s)
        s = _pack(phase, expected, pending, txc + int(args[1][k]))
        x.mem.store_scalar(np.dtype(np.uint64), bar[k:k + 1], np.uint64(s), x.lanes[k:k + 1])


def _copy_arrive_form(noinc: bool):
    """The copies are done already: `.noinc` is one arrival of the phase, the plain form
    (which adds one to the pending count first) changes nothing."""
    def fn(x, args, arg_tys, result_ty):
        if noinc:
            _arrive(x, args[0], None, "cp_async_mbarrier_arrive_noinc")
        else:
            bar = _shared_barrier(x, args[0], "cp_async_mbarrier_arrive")
            _check_valid(x, bar, _load(x, bar, x.lanes), "cp_async_mbarrier_arrive")
    return fn


def _phase_done(x, bar, parity: np.ndarray, name: str) -> np.ndarray:
    bar = _shared_barrier(x, bar, name)
    states = _load(x, bar, x.lanes)
    _check_valid(x, bar, states, name)
    return (states >> np.uint64(63)) != (parity.astype(np.uint64) & np.uint64(1))


@intrinsic("mbarrier.test_wait", "mbarrier.try_wait")
def _test_wait(x, args, arg_tys, result_ty):
    return _phase_done(x, args[0], args[1].astype(np.uint64) >> np.uint64(63),
                       "mbarrier_test_wait")


@intrinsic("mbarrier.try_wait.parity")
def _try_wait_parity(x, args, arg_tys, result_ty):
    return _phase_done(x, args[0], args[1], "mbarrier_try_wait_parity")


@intrinsic("mbarrier.wait")
def _wait(x, args, arg_tys, result_ty):
    done = _phase_done(x, args[0], args[1].astype(np.uint64) >> np.uint64(63), "mbarrier_wait")
    if not done.all():
        k = int(np.flatnonzero(~done)[0])
        thread, block = x.coords(int(x.lanes[k]))
        raise SimError(
            f"`mbarrier_wait` in thread {thread} of block {block} waits for a phase that "
            "has not completed: the simulator runs the threads of a block in lockstep, so "
            "arrivals that come later in the program cannot release it (GPU only)")


def _register() -> None:
    from .intrinsics import INTRINSICS
    register_copies()
    for noinc in (False, True):
        for shared in ("", ".shared"):
            INTRINSICS[f"cp.async.mbarrier.arrive{'.noinc' if noinc else ''}{shared}"] = \
                _copy_arrive_form(noinc)


_register()
