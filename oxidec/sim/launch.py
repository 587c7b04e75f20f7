"""Launching a kernel on the simulator: arguments, memory, batches of blocks.

`run_kernel(program, name, grid, block, args, shared_bytes)` runs every thread of every
block. Blocks are simulated in batches of whole blocks (up to `max_lanes` threads per batch,
all lanes vectorised together), in linear block order; each batch has its own shared memory
(one slice per block). Array arguments are the caller's arrays, written in place.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import types as T
from ..half_float import half_bits
from ..mir.syntax import Program
from .compile import FlatKernel, compile_kernel
from .errors import SimError
from .gpu_only import check_runs_on_simulator, grid_sync_too_large
from ..runtime import values as host_values
from ..runtime.errors import LaunchError
from .layout import assemble, canon, is_fat, leaves, scalar_dtype, size_of, tree_map
from .machine import Batch, run_batch
from .memory import Memory, make_address

DEFAULT_MAX_LANES = 1 << 16  # measured: larger batches lose more to cache misses than they save
DEFAULT_MAX_STEPS = 1_000_000
GRID_SYNC_MAX_LANES = 1 << 18  # a `grid::sync()` launch runs as one batch of this many at most
MAX_THREADS_PER_BLOCK = 1024
MAX_SHARED_BYTES = 227 * 1024  # sm_80/sm_90 opt-in maximum per block
SHARED_POISON = 0xFF  # uninitialised shared memory reads as NaN / all ones

PrintfHook = Callable[[Any, tuple, tuple, tuple], None]


def run_kernel(program: Program, kernel_name: str, grid, block, args: Sequence[Any],
               shared_bytes: int = 0, *, max_lanes: int = DEFAULT_MAX_LANES,
               max_steps: int = DEFAULT_MAX_STEPS, on_printf: PrintfHook | None = None,
               constants: dict[str, bytes] | None = None) -> None:
    """Run `kernel_name` of `program` over the whole grid.

    args: one per Rust parameter: NumPy arrays for `&[T]`, `DisjointSlice<T>`, `*const/*mut T`
    (None is a null pointer), NumPy or Python scalars for scalars. Raises `SimTrap` when a
    thread traps and `SimError` for barrier divergence, bad arguments, unsupported MIR.
    on_printf(format_id, thread, block, values) is called per thread for `printf` effects.
    """
    check_runs_on_simulator(program, kernel_name)  # clusters, TMA, wgmma: OX0030
    kernel = compile_kernel(program, kernel_name)
    launch = Launch(kernel, grid, block, args, shared_bytes, max_lanes, max_steps, on_printf)
    launch.constants = dict(constants or {})  # `#[constant]` values by static name
    launch.run()


def kernel_names(program: Program) -> list[str]:
    return [b.name for b in program.bodies if b.kind == "kernel"]


class SimModule:
    """A program ready to run on the simulator; compiles each kernel once."""

    def __init__(self, program: Program):
        self.program = program
        self._kernels: dict[str, FlatKernel] = {}

    @property
    def kernels(self) -> list[str]:
        return kernel_names(self.program)

    def kernel(self, name: str) -> FlatKernel:
        k = self._kernels.get(name)
        if k is None:
            check_runs_on_simulator(self.program, name)
            k = self._kernels[name] = compile_kernel(self.program, name)
        return k

    def launch(self, name: str, grid, block, args: Sequence[Any], shared_bytes: int = 0,
               **options) -> None:
        Launch(self.kernel(name), grid, block, args, shared_bytes, **options).run()


def simulate_module(program: Program) -> SimModule:
    return SimModule(program)


def _dim3(value, what: str) -> tuple[int, int, int]:
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    dims = tuple(int(v) for v in value)
    if not 1 <= len(dims) <= 3:
        raise SimError(f"{what} must have 1 to 3 dimensions, got {value!r}")
    dims = dims + (1,) * (3 - len(dims))
    if any(d < 1 for d in dims):
        raise SimError(f"{what} dimensions must be positive, got {dims}")
    return dims


class Launch:
    count = 0  # launches so far in this process

    def __init__(self, kernel: FlatKernel, grid, block, args: Sequence[Any], shared_bytes: int = 0,
                 max_lanes: int = DEFAULT_MAX_LANES, max_steps: int = DEFAULT_MAX_STEPS,
                 on_printf: PrintfHook | None = None):
        self.kernel = kernel
        self.grid = _dim3(grid, "grid")
        self.block = _dim3(block, "block")
        self.threads_per_block = self.block[0] * self.block[1] * self.block[2]
        self.nblocks = self.grid[0] * self.grid[1] * self.grid[2]
        self.args = list(args)
        self.shared_bytes = int(shared_bytes)
        self.max_lanes = max(1, int(max_lanes))
        self.max_steps = int(max_steps)
        self.on_printf = on_printf
        Launch.count += 1  # `%gridid`: each launch's own number
        self.number = Launch.count
        self.mem = Memory()
        self.shared_rid = 0
        self.block_bytes = 0
        self._statics: dict[str, int] = {}
        self.constants: dict[str, bytes] = {}
        self._check_launch()

    def _check_launch(self) -> None:
        name = self.kernel.name
        tpb = self.threads_per_block
        if tpb > MAX_THREADS_PER_BLOCK or self.block[2] > 64:
            raise SimError(f"launch of `{name}`: a block of {self.block} ({tpb} threads) exceeds "
                           f"the limit of {MAX_THREADS_PER_BLOCK} threads (z at most 64)")
        if self.grid[1] > 65535 or self.grid[2] > 65535 or self.grid[0] > 2 ** 31 - 1:
            raise SimError(f"launch of `{name}`: grid {self.grid} exceeds the device limits")
        launch = self.kernel.body.launch
        bounds = launch.bounds if launch is not None else None
        if bounds and bounds[0] and tpb > bounds[0]:
            raise SimError(f"launch of `{name}`: {tpb} threads per block exceed its "
                           f"#[launch_bounds({bounds[0]}, ...)]")
        if self.shared_bytes < 0:
            raise SimError(f"launch of `{name}`: negative dynamic shared memory size")
        total = self.kernel.shared_static_bytes + self.shared_bytes
        if total > MAX_SHARED_BYTES:
            raise SimError(f"launch of `{name}`: {total} bytes of shared memory per block exceed "
                           f"the limit of {MAX_SHARED_BYTES}")

    # -- arguments -------------------------------------------------------------------------
    def _arguments(self) -> tuple[list, list]:
        body = self.kernel.body
        params = list(body.args())
        if len(self.args) != len(params):
            sig = ", ".join(f"{body.locals[p].name or f'_{p}'}: {body.locals[p].ty}"
                            for p in params)
            raise SimError(f"kernel `{body.name}` takes {len(params)} argument"
                           f"{'s' if len(params) != 1 else ''} ({sig}), got {len(self.args)}")
        values, write_backs = [], []
        for local, arg in zip(params, self.args):
            decl = body.locals[local]
            name = decl.name or f"_{local}"
            values.append(self._argument(name, decl.ty, arg, write_backs))
        return values, write_backs

    def _argument(self, name: str, ty: T.Ty, arg, write_backs: list):
        if isinstance(ty, T.Runtime2DSliceTy):  # a 2-D array: (its slice, its row width)
            if not isinstance(arg, np.ndarray) or arg.ndim != 2:
                raise SimError(f"argument `{name}: {ty}`: expected a 2-D numpy array (rows of "
                               "the row width)")
            return (self._argument(name, ty.fields[0][1], arg, write_backs),
                    np.uint32(arg.shape[1]))
        fat = is_fat(ty)
        if fat or isinstance(ty, (T.PtrTy, T.RefTy)):
            elem = (ty.elem if isinstance(ty, T.DisjointSliceTy) else ty.inner.elem) if fat \
                else ty.inner
            if arg is None and not fat:
                return np.uint64(0)
            if not isinstance(arg, np.ndarray):
                raise SimError(f"argument `{name}: {ty}`: expected a numpy array, got "
                               f"{type(arg).__name__}")
            celem = canon(elem)
            dt = scalar_dtype(celem)
            if celem == T.F16:  # the host holds f16 as NumPy's float16: the same bits
                dt = np.dtype(np.float16)
            if dt is not None and arg.dtype != dt:
                raise SimError(f"argument `{name}: {ty}`: expected an array of {elem} ({dt}), "
                               f"got {arg.dtype}")
            writable = isinstance(ty, T.DisjointSliceTy) or ty.mutable or \
                isinstance(getattr(ty.inner, "elem", None), T.AtomicCellTy)  # atomic cells
            work = arg
            if not arg.flags.c_contiguous:
                work = np.ascontiguousarray(arg)
                if writable:
                    write_backs.append((arg, work))
            buf = work.reshape(-1).view(np.uint8)
            rid = self.mem.add(buf, f"argument `{name}`",
                               writable=writable and bool(buf.flags.writeable))
            addr = np.uint64(make_address(rid))
            if not fat:
                return addr
            esize = size_of(celem)
            length = work.size if dt is not None else (work.nbytes // esize if esize else 0)
            return (addr, np.uint64(length))
        return _scalar_argument(name, ty, canon(ty), arg)

    def static_address(self, name: str) -> int:
        rid = self._statics.get(name)
        if rid is None:
            ty = self.kernel.global_statics[name]
            buf = np.zeros(max(size_of(canon(ty)), 1), dtype=np.uint8)
            init, writable = self.kernel.global_inits.get(name, (None, True))
            init = self.constants.get(name, init)
            if init:
                buf[:len(init)] = np.frombuffer(init, dtype=np.uint8)
            rid = self._statics[name] = self.mem.add(buf, f"static `{name}`",
                                                     writable=writable)
        return make_address(rid)

    # -- running ---------------------------------------------------------------------------
    def run(self) -> None:
        values, write_backs = self._arguments()
        k = self.kernel
        tpb = self.threads_per_block
        per_batch = max(1, self.max_lanes // tpb)
        if k.grid_barriers.any():  # `grid::sync()`: every block runs in the one batch
            if self.nblocks * tpb > max(self.max_lanes, GRID_SYNC_MAX_LANES):
                raise grid_sync_too_large(k.body, self.nblocks * tpb, GRID_SYNC_MAX_LANES)
            per_batch = self.nblocks
        if k.uses_shared or self.shared_bytes:
            self.block_bytes = (k.shared_static_bytes + self.shared_bytes + 15) // 16 * 16 or 16
            self.shared_rid = self.mem.add(np.zeros(0, np.uint8), "shared memory", "shared",
                                           block_bytes=self.block_bytes)
        prev = None
        try:
            for b0 in range(0, self.nblocks, per_batch):
                nb = min(per_batch, self.nblocks - b0)
                if self.shared_rid:
                    buf = np.full(nb * self.block_bytes, SHARED_POISON, dtype=np.uint8)
                    self.mem.replace(self.shared_rid, buf, self.block_bytes)
                x = Batch(self, k, b0, nb)
                if prev is not None and prev.L == x.L:
                    x.locals = prev.locals  # reuse the lane storage (locals start undefined)
                prev = x
                self.mem.batch = x
                for i, v in enumerate(values):
                    x.locals[1 + i] = _fill(v, x.L)
                run_batch(x)
        finally:
            self.mem.batch = None
            for orig, work in write_backs:
                orig[...] = work


def _fill(value, L: int):
    if isinstance(value, tuple):
        return tuple(_fill(v, L) for v in value)
    arr = np.asarray(value)
    return np.array(np.broadcast_to(arr, (L,) + arr.shape))


def _scalar_argument(name: str, ty: T.Ty, cty: T.Ty, arg):
    dt = scalar_dtype(cty)
    if isinstance(ty, (T.EnumTy, T.StructTy)):  # by value: the host's encoding, then its leaves
        try:
            raw = np.frombuffer(arg if isinstance(arg, (bytes, bytearray)) else
                                host_values.encode(ty, arg, f"argument `{name}`"), dtype=np.uint8)
        except LaunchError as e:
            raise SimError(str(e)) from None
        parts = []
        for lf in leaves(cty):
            offs = lf.offsets.reshape(-1).astype(np.int64)
            vals = np.array([raw[o:o + lf.dtype.itemsize].view(lf.dtype)[0] for o in offs],
                            dtype=lf.dtype).reshape(lf.dims)
            parts.append(vals if lf.dims else vals[()])
        return assemble(cty, iter(parts))
    if dt is None:
        if isinstance(cty, T.TupleTy):
            if not isinstance(arg, (tuple, list)) or len(arg) != len(cty.elems):
                raise SimError(f"argument `{name}: {ty}`: expected a tuple of "
                               f"{len(cty.elems)} values")
            return tuple(_scalar_argument(name, ty, e, a) for e, a in zip(cty.elems, arg))
        if isinstance(cty, T.ArrayTy):
            arr = np.asarray(arg)
            if arr.shape[:1] != (cty.length,):
                raise SimError(f"argument `{name}: {ty}`: expected {cty.length} elements")
            inner = [_scalar_argument(name, ty, cty.elem, a) for a in arr]
            return tree_map(lambda *xs: np.stack([np.asarray(v) for v in xs]), *inner)
        raise SimError(f"argument `{name}: {ty}` cannot be passed to the simulator")
    if isinstance(arg, np.ndarray) and arg.ndim == 0:
        arg = arg[()]
    is_bool = isinstance(arg, (bool, np.bool_))
    if T.is_half(cty):  # a number, rounded to the half: its bits
        if is_bool or not isinstance(arg, (int, float, np.integer, np.floating)):
            raise SimError(f"argument `{name}: {ty}`: expected a number, got {arg!r}")
        return np.uint16(half_bits(float(arg), cty))
    if dt.kind == "b":
        if not is_bool:
            raise SimError(f"argument `{name}: {ty}`: expected a bool, got {arg!r}")
        return np.bool_(arg)
    if dt.kind in "iu":
        if is_bool or not isinstance(arg, (int, np.integer)):
            raise SimError(f"argument `{name}: {ty}`: expected an integer, got {arg!r}")
        info = np.iinfo(dt)
        if not info.min <= int(arg) <= info.max:
            raise SimError(f"argument `{name}: {ty}`: {int(arg)} is out of range")
        return dt.type(int(arg))
    if is_bool or not isinstance(arg, (int, float, np.integer, np.floating)):
        raise SimError(f"argument `{name}: {ty}`: expected a number, got {arg!r}")
    with np.errstate(over="ignore"):
        return dt.type(arg)
