"""The machine: runs a batch of whole thread blocks of a FlatKernel, lane-vectorised.

A batch holds `nblocks * threads_per_block` lanes, in grid linear order (block by block,
threads by linear id: x fastest). Every local of every frame is one tree of arrays with a row
per lane. Each lane has a program counter (a flat block id). One step:

1. pick the lowest block id that some runnable lanes are at (ids follow a weak topological
   order, so diverged lanes reconverge at joins, which come after both arms, and lanes that
   leave a loop wait at its exit until every lane has left);
2. run that block's statements for exactly those lanes (the "active" lanes: `x.sel`);
3. the terminator sends them on: one target for all (no scan needed next step when no other
   lanes are runnable), a target per lane, exit, or wait at a barrier.

Barriers: a lane at `sync_threads` stops (pc = WAIT_BASE + block). When no lane is runnable,
every block must have all of its threads that have not exited waiting at the same barrier
(then they all move on: PTX `exit` releases a barrier that waits only on exited threads);
anything else is barrier divergence, reported for the first such block.
"""
from __future__ import annotations

import sys
from functools import cached_property

import numpy as np

from ..printf import format_c
from .compile import EXIT, FlatKernel
from .errors import LaneFault, SimError, SimTrap, format_span
from .layout import poison
from .memory import make_address

ALL = slice(None)


class Batch:
    """The state of a batch of blocks, and the context every compiled closure gets as `x`."""

    def __init__(self, launch, kernel: FlatKernel, block0: int, nblocks: int):
        self.launch = launch
        self.kernel = kernel
        self.T = launch.threads_per_block
        self.block0 = block0
        self.nblocks = nblocks
        self.L = L = nblocks * self.T
        self.arange = np.arange(L)
        self.locals: list = [None] * len(kernel.local_tys)
        self.local_ctys = kernel.local_ctys
        self.mem = launch.mem
        self.steps = 0
        self.sel = ALL
        self.n = L
        self.lanes = self.arange
        self._special: dict[str, np.ndarray] = {}
        self._pos_step = -1
        self._pos = None
        self.block_bytes = launch.block_bytes
        self.dynamic_shared_offset = kernel.shared_static_bytes
        self.dynamic_shared_bytes = launch.shared_bytes
        self.shared_base = np.uint64(make_address(launch.shared_rid)) if launch.shared_rid else None

    # -- lanes of the current step ---------------------------------------------------
    def set_sel(self, sel, n: int) -> None:
        self.sel = sel
        self.n = n
        self.lanes = self.arange if sel is ALL else sel

    def position_of(self) -> np.ndarray:
        """Batch lane id -> its position among the active lanes, or -1."""
        if self._pos_step != self.steps:
            pos = np.full(self.L, -1, dtype=np.int64)
            pos[self.lanes] = np.arange(self.n)
            self._pos, self._pos_step = pos, self.steps
        return self._pos

    # -- locals ---------------------------------------------------------------------------
    def alloc(self, g: int):
        cty = self.local_ctys[g]
        if cty is None:
            raise SimError(f"the simulator cannot represent a local of type "
                           f"`{self.kernel.local_tys[g]}`")
        t = poison(cty, self.L)
        self.locals[g] = t
        return t

    def local(self, g: int):
        t = self.locals[g]
        return t if t is not None else self.alloc(g)

    # -- thread geometry -------------------------------------------------------------------
    @cached_property
    def thread_linear(self) -> np.ndarray:
        return self.arange % self.T

    @cached_property
    def lane_block(self) -> np.ndarray:
        """The batch-local block index of each lane (u64, for shared addresses)."""
        return (self.arange // self.T).astype(np.uint64)

    def special(self, name: str) -> np.ndarray:
        arr = self._special.get(name)
        if arr is None:
            arr = self._compute_special(name).astype(np.uint32)
            self._special[name] = arr
        return arr

    def _compute_special(self, name: str) -> np.ndarray:
        bx, by, bz = self.launch.block
        gx, gy, gz = self.launch.grid
        t = self.thread_linear
        blin = self.block0 + self.arange // self.T
        table = {
            "tid.x": lambda: t % bx, "tid.y": lambda: (t // bx) % by,
            "tid.z": lambda: t // (bx * by),
            "ctaid.x": lambda: blin % gx, "ctaid.y": lambda: (blin // gx) % gy,
            "ctaid.z": lambda: blin // (gx * gy),
            "ntid.x": lambda: np.full(self.L, bx), "ntid.y": lambda: np.full(self.L, by),
            "ntid.z": lambda: np.full(self.L, bz),
            "nctaid.x": lambda: np.full(self.L, gx), "nctaid.y": lambda: np.full(self.L, gy),
            "nctaid.z": lambda: np.full(self.L, gz),
            "laneid": lambda: t % 32, "warpid": lambda: t // 32,
            "nwarpid": lambda: np.full(self.L, (self.T + 31) // 32),
            # the simulator is one SM; a launch without clusters is clusters of one block
            "smid": lambda: np.zeros(self.L), "nsmid": lambda: np.ones(self.L),
            "hw_warpid": lambda: t // 32, "hw_nwarpid": lambda: np.full(self.L, 64),
            "gridid": lambda: np.full(self.L, self.launch.number, np.uint64),
            "dynamic_smem_size": lambda: np.full(self.L, self.dynamic_shared_bytes),
            **{f"cluster_ctaid.{a}": (lambda: np.zeros(self.L)) for a in "xyz"},
            **{f"cluster_nctaid.{a}": (lambda: np.ones(self.L)) for a in "xyz"},
            "cluster_ctarank": lambda: np.zeros(self.L),
            "cluster_nctarank": lambda: np.ones(self.L),
            "clusterid.x": lambda: blin % gx, "clusterid.y": lambda: (blin // gx) % gy,
            "clusterid.z": lambda: blin // (gx * gy),
            "nclusterid.x": lambda: np.full(self.L, gx),
            "nclusterid.y": lambda: np.full(self.L, gy),
            "nclusterid.z": lambda: np.full(self.L, gz),
            "cluster_idx": lambda: blin, "num_clusters": lambda: np.full(self.L, gx * gy * gz),
            **{f"lanemask_{k}": (lambda k=k: _lanemask(k, t % 32))
               for k in ("lt", "le", "eq", "ge", "gt")},
        }
        if name not in table:
            raise SimError(f"unknown special register `{name}`")
        return table[name]()

    @cached_property
    def lane_id(self) -> np.ndarray:
        return (self.thread_linear % 32).astype(np.int64)

    @cached_property
    def warp_base(self) -> np.ndarray:
        """Batch lane id of lane 0 of each lane's warp."""
        return self.arange - self.lane_id

    @cached_property
    def warp_size(self) -> np.ndarray:
        """Threads in each lane's warp (the last warp of a block may be partial)."""
        first = self.thread_linear - self.lane_id
        return np.minimum(32, self.T - first)

    @cached_property
    def warps_per_block(self) -> int:
        return (self.T + 31) // 32

    @cached_property
    def warp_index(self) -> np.ndarray:
        return (self.arange // self.T) * self.warps_per_block + self.thread_linear // 32

    @cached_property
    def nwarps(self) -> int:
        return self.nblocks * self.warps_per_block

    def shared_address(self, offset: int) -> np.ndarray:
        if self.shared_base is None:
            raise SimError("shared memory is used but none was laid out")
        return (self.shared_base + self.lane_block[self.sel] * np.uint64(self.block_bytes)
                + np.uint64(offset))

    def coords(self, lane: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        bx, by, _ = self.launch.block
        gx, gy, _ = self.launch.grid
        t = lane % self.T
        blin = self.block0 + lane // self.T
        thread = (t % bx, (t // bx) % by, t // (bx * by))
        block = (blin % gx, (blin // gx) % gy, blin // (gx * gy))
        return thread, block

    # -- effects -------------------------------------------------------------------------------
    def printf(self, effect, values: list) -> None:
        """`printf(format id, values...)`: one on_printf call per active lane, in order;
        without a hook, each lane's line is printed to stdout as vprintf would."""
        hook = self.launch.on_printf
        if hook is None:
            hook = self._print
        fmt = values[0][0].item() if values else None
        for k, lane in enumerate(self.lanes.tolist()):
            thread, block = self.coords(lane)
            hook(fmt, thread, block, tuple(_lane_value(v, k) for v in values[1:]))


    def _print(self, fmt, thread, block, values) -> None:
        strings = self.kernel.strings
        if isinstance(fmt, int) and 0 <= fmt < len(strings):
            sys.stdout.write(format_c(strings[fmt], values))


def _lane_value(tree, k: int):
    if isinstance(tree, tuple):
        return tuple(_lane_value(t, k) for t in tree)
    v = tree[k]
    return v.item() if v.ndim == 0 else v.tolist()


def run_batch(x: Batch) -> None:
    with np.errstate(all="ignore"):  # IEEE results (inf, NaN) are the semantics, not warnings
        _run(x)


def _run(x: Batch) -> None:
    k = x.kernel
    blocks = k.blocks
    nb = len(blocks)
    wait_base, exit_pc = nb, 2 * nb
    L = x.L
    pc = np.full(L, k.entry, dtype=np.int32)
    nrun = L
    cur, sel, n = k.entry, ALL, L
    max_steps = x.launch.max_steps
    while True:
        if cur is None:
            m = int(pc.min())
            if m >= wait_base:
                if m >= exit_pc:
                    return
                nrun += _release(x, pc, wait_base, exit_pc)
                continue
            idx = np.flatnonzero(pc == m)
            cur = m
            if idx.size == L:
                sel, n = ALL, L
            else:
                sel, n = idx, idx.size
        x.steps += 1
        if x.steps > max_steps:
            raise SimError(f"kernel `{k.name}` did not finish within {max_steps} steps "
                           "(an endless loop?); raise max_steps if it is just long")
        x.set_sel(sel, n)
        blk = blocks[cur]
        stmts = blk.stmts
        i = 0
        try:
            for i in range(len(stmts)):
                stmts[i](x)
            i = len(stmts)
            out = blk.term(x)
        except LaneFault as f:
            span = blk.spans[i] if i < len(stmts) else blk.span
            raise _trap(x, f, span) from None
        except SimError:
            raise
        except Exception as e:
            span = blk.spans[i] if i < len(stmts) else blk.span
            where = f" at {format_span(span)}" if span is not None else ""
            raise SimError(f"internal simulator error in kernel `{k.name}`{where}: "
                           f"{type(e).__name__}: {e}") from e
        if type(out) is int:
            if out >= 0:
                pc[sel] = out
                if n == nrun:
                    cur = out  # every runnable lane goes there: no scan
                    continue
            elif out == EXIT:
                pc[sel] = exit_pc
                nrun -= n
            else:  # WAIT
                pc[sel] = wait_base + cur
                nrun -= n
        else:
            pc[sel] = out
        cur = None


def _release(x: Batch, pc: np.ndarray, wait_base: int, exit_pc: int) -> int:
    rows = pc.reshape(x.nblocks, x.T)
    # Exited threads do not hold a barrier up (PTX `exit` releases a barrier that waits
    # only on them), but `bar.sync` is `.aligned`: a warp arrives whole. So a block is
    # fine when all of its threads that have not exited wait at the same barrier and no
    # warp is split between the barrier and the exit.
    live = rows != exit_pc
    lo = np.where(live, rows, exit_pc).min(1)
    hi = np.where(live, rows, -1).max(1)
    ok = ~live.any(1) | (lo == hi)
    if not live.all():
        warps = -(-x.T // 32)
        alive = np.zeros((x.nblocks, warps * 32), bool)
        gone = np.zeros((x.nblocks, warps * 32), bool)
        alive[:, :x.T] = live
        gone[:, :x.T] = ~live  # lanes past the block's end are neither
        partial = alive.reshape(x.nblocks, warps, 32).any(2) & \
            gone.reshape(x.nblocks, warps, 32).any(2)
        ok &= ~partial.any(1)
    bad = np.flatnonzero(~ok)
    if bad.size:
        raise _divergence(x, int(bad[0]), rows[bad[0]], wait_base, exit_pc)
    waiting = pc < exit_pc
    at_grid = np.zeros_like(waiting)
    at_grid[waiting] = x.kernel.grid_barriers[pc[waiting] - wait_base]
    if at_grid.any():  # `grid::sync()`: the batch is the whole grid (launch.py)
        block_waits = waiting & ~at_grid
        if block_waits.any():  # the other blocks go on to their own barriers first
            waiting = block_waits
        elif not at_grid.all() or np.unique(pc).size != 1:
            raise _grid_divergence(x, pc, wait_base, exit_pc)
    pc[waiting] = x.kernel.barrier_targets[pc[waiting] - wait_base]
    return int(np.count_nonzero(waiting))


def _grid_divergence(x: Batch, pc: np.ndarray, wait_base: int, exit_pc: int) -> SimError:
    """Some blocks wait at a `grid::sync()` that others never reach (they exited, or wait
    at another one): on the GPU the grid hangs."""
    k = x.kernel
    rows = pc.reshape(x.nblocks, x.T)[:, 0]
    site = int(rows[rows < exit_pc][0])
    span = k.blocks[site - wait_base].span
    loc = format_span(span, col=False) if span is not None else "?"
    at = int(np.count_nonzero(rows == site))
    exited = int(np.count_nonzero(rows == exit_pc))
    other = x.nblocks - at - exited
    return SimError(f"grid barrier divergence in kernel `{k.name}`: {at} of {x.nblocks} blocks "
                    f"reached `grid::sync()` at {loc}, {exited} exited"
                    + (f", {other} wait at another grid barrier" if other else "")
                    + " (on the GPU the grid hangs)")


def _divergence(x: Batch, r: int, row: np.ndarray, wait_base: int, exit_pc: int) -> SimError:
    k = x.kernel
    first = int(np.flatnonzero(row < exit_pc)[0])
    site = int(row[first])
    at = int(np.count_nonzero(row == site))
    exited = int(np.count_nonzero(row == exit_pc))
    span = k.blocks[site - wait_base].span
    loc = format_span(span, col=False) if span is not None else "?"
    _, block = x.coords(r * x.T)
    details = []
    if exited:
        details.append(f"{exited} exited")
    for other in np.unique(row):
        if other in (site, exit_pc):
            continue
        c = int(np.count_nonzero(row == other))
        ospan = k.blocks[int(other) - wait_base].span
        oloc = format_span(ospan, col=False) if ospan is not None else "?"
        details.append(f"{c} wait at the barrier at {oloc}")
    return SimError(f"barrier divergence in kernel `{k.name}`: {at} thread{'s' if at != 1 else ''} "
                    f"reached the barrier at {loc}, {x.T - at} did not "
                    f"(block ({block[0]},{block[1]},{block[2]}): {', '.join(details)})")


def _trap(x: Batch, f: LaneFault, span) -> SimTrap:
    if f.lanes is not None:
        lanes = np.asarray(f.lanes).reshape(-1)
    else:
        lanes = x.lanes[np.asarray(f.positions, dtype=np.int64).reshape(-1)]
    lane = int(lanes.min())
    thread, block = x.coords(lane)
    return SimTrap(x.kernel.name, f.reason, span, thread, block)


def _lanemask(kind: str, lane: np.ndarray) -> np.ndarray:
    """`%lanemask_<kind>`: the bits of the lanes whose id compares so with this lane's."""
    bit = np.left_shift(np.uint64(1), lane.astype(np.uint64))
    below = bit - np.uint64(1)  # lanes < lane
    full = np.uint64(0xFFFFFFFF)
    return {"lt": below, "le": below | bit, "eq": bit, "ge": full & ~below,
            "gt": full & ~(below | bit)}[kind]
