"""The `Intrinsic` rvalues: special registers, math, bit counting, pointers, warp collectives.
(Atomics are `AtomicOp` statements: compile.py, on Memory.atomic_rmw.)

An implementation is `fn(x, args, arg_tys, result_ty) -> value` where
- `x` is the executing `Batch` (machine.py) positioned at the current step: `x.n` active
  lanes, `x.lanes` their batch lane ids (ascending, i.e. linear thread order), `x.sel` the
  selector to gather per-lane batch arrays (`arr[x.sel]`), and per-batch lane tables
  (`x.special(name)`, `x.lane_id`, `x.warp_base`, `x.warp_size`, `x.warp_index`);
- `args` are the operand values for the active lanes (arrays of shape (n, ...)); they must not
  be modified;
- `result_ty` is the type of the destination place.
All lanes of a warp that execute the same statement are in the same call, which is what
warp collectives (`shuffle_*`, `ballot`, ...) need. Add one with `@intrinsic("name")`. The
names are the `sim` operations of the device API registry's rows (oxidec/device_api/ops.py;
by default the MIR name, which the PTX emitter shares).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import types as T
from ..device_api import ops
from ..device_api.ops import OPS
from .errors import LaneFault, SimError
from .fma import fma
from .nans import gpu_nans, signed_zero_order
from .int_bits import INT_BITS
from .layout import canon, scalar_dtype, size_of, tree_map
from .ops import unsigned_view

Impl = Callable[..., object]
INTRINSICS: dict[str, Impl] = {}

# The special registers: every registry row with a register the simulator reads as itself
# (machine.Batch.special), and those the emitter computes.
SPECIAL_REGISTERS = tuple(o.name for o in OPS.values() if o.sreg and o.sim_op == o.name) \
    + ("warpid", "nwarpid", "cluster_idx", "num_clusters")


def sim_op(name: str) -> str:
    """The simulator operation of a MIR intrinsic or effect (its registry row's `sim`)."""
    op = OPS.get(name)
    if op is not None and op.sim is None:
        raise SimError(f"`{name}` runs on the GPU only, not on the simulator")
    return op.sim_op if op is not None else name


def intrinsic(*names: str):
    """Register an implementation under one or more names."""
    def register(fn: Impl) -> Impl:
        for name in names:
            INTRINSICS[name] = fn
        return fn
    return register


def _result_dtype(result_ty: T.Ty, fallback: np.dtype) -> np.dtype:
    dt = scalar_dtype(canon(result_ty)) if result_ty is not None else None
    return dt if dt is not None else fallback


# -- special registers ----------------------------------------------------------------

def _special(name: str) -> Impl:
    def read(x, args, arg_tys, result_ty):
        return x.special(name)[x.sel]
    return read


for _name in SPECIAL_REGISTERS:
    INTRINSICS[_name] = _special(_name)


@intrinsic("breakpoint")
def _breakpoint(x, args, arg_tys, result_ty):
    """`brkpt` with no debugger attached: the GPU ends the kernel with a launch failure
    (measured on the H200), so the simulator traps rather than run on."""
    raise LaneFault("breakpoint (`brkpt`) reached with no debugger attached",
                    lanes=x.lanes)


@intrinsic("clock")
def _clock(x, args, arg_tys, result_ty):
    """`clock`, `clock64`, `globaltimer`: the simulator's step counter."""
    return np.full(x.n, x.steps, dtype=_result_dtype(result_ty, np.dtype(np.uint64)))


# -- math ---------------------------------------------------------------------------------

def _float_unary(ufunc) -> Impl:
    def fn(x, args, arg_tys, result_ty):
        with np.errstate(all="ignore"):
            return gpu_nans(ufunc(args[0]), args[0])
    return fn


for _name, _ufunc in {"sqrt": np.sqrt, "floor": np.floor, "ceil": np.ceil,
                      "trunc": np.trunc}.items():
    INTRINSICS[_name] = _float_unary(_ufunc)

# The accurate routines run oxidec/mathlib's op list, the one the PTX emitter prints, so they
# give the GPU's bits. The fast variants (MUFU approximations on the GPU) are NumPy's in f32:
# close to the hardware, not bit exact; on f64 they are the accurate routines, as on the GPU.
def _revolutions(a: np.ndarray) -> np.ndarray:
    """The angle as MUFU.SIN/COS take it, in radians: ptxas emits `sin.approx.f32 x` as
    `FMUL.RZ t, x, 0.15915494f` (x / 2pi, rounded toward zero) then `MUFU.SIN t`. Most of
    the hardware's error for a large |x| is that product's rounding, so it is made exactly
    (the f64 product of two f32 is exact), and only MUFU's own few ulps are left."""
    p = a.astype(np.float64) * np.float64(np.float32(0.15915493667125701904))
    t = p.astype(np.float32)
    t = np.where(np.abs(t.astype(np.float64)) > np.abs(p), np.nextafter(t, np.float32(0)), t)
    return t.astype(np.float64) * (2 * np.pi)


_FAST_F32 = {"exp.approx": np.exp, "exp2.approx": np.exp2, "ln.approx": np.log,
             "log2.approx": np.log2, "sin.approx": lambda a: np.sin(_revolutions(a)),
             "cos.approx": lambda a: np.cos(_revolutions(a)),
             "tanh.approx": np.tanh, "rsqrt.approx": lambda a: 1 / np.sqrt(a)}


def _math_routine(name: str) -> Impl:
    def fn(x, args, arg_tys, result_ty):
        from ..mathlib import simulate
        return simulate(name, args)
    return fn


def _fast(name: str, accurate: str | None) -> Impl:
    def fn(x, args, arg_tys, result_ty):
        a = args[0]
        if a.dtype == np.float64 and accurate is not None:
            from ..mathlib import simulate
            return simulate(accurate, args)
        with np.errstate(all="ignore"):
            return _FAST_F32[name](a).astype(a.dtype)
    return fn


for _name in ops.MATH_ROUTINES:
    INTRINSICS[_name] = _math_routine(_name)
for _name in _FAST_F32:
    INTRINSICS[_name] = _fast(_name, _name.split(".")[0] if _name != "rsqrt.approx" else None)


@intrinsic("copysign")
def _copysign(x, args, arg_tys, result_ty):
    return np.copysign(args[0], args[1].astype(args[0].dtype))


@intrinsic("bitcast")
def _bitcast(x, args, arg_tys, result_ty):
    """`to_bits` / `from_bits`: the same bytes viewed as the destination's type."""
    return np.ascontiguousarray(args[0]).view(_result_dtype(result_ty, args[0].dtype))


@intrinsic("abs")
def _abs(x, args, arg_tys, result_ty):
    if arg_tys and T.is_half(arg_tys[0]):  # a half's bits: clear the sign
        return np.asarray(args[0], dtype=np.uint16) & np.uint16(0x7FFF)
    with np.errstate(all="ignore"):
        a = args[0]
        return a if a.dtype.kind == "u" else np.abs(a)  # wrapping for iN::MIN, as release Rust


@intrinsic("min")
def _min(x, args, arg_tys, result_ty):
    a, b = args
    if a.dtype.kind != "f":
        return np.minimum(a, b.astype(a.dtype))
    return signed_zero_order(gpu_nans(np.fmin(a, b), a, b), a, b, lowest=True)


@intrinsic("max")
def _max(x, args, arg_tys, result_ty):
    a, b = args
    if a.dtype.kind != "f":
        return np.maximum(a, b.astype(a.dtype))
    return signed_zero_order(gpu_nans(np.fmax(a, b), a, b), a, b, lowest=False)


@intrinsic("fma")
def _fma(x, args, arg_tys, result_ty):
    if arg_tys and T.is_half(arg_tys[0]):
        from .halves import fma as half_fma
        return half_fma(*args, arg_tys[0])
    return gpu_nans(fma(*args), *args, first=True)


@intrinsic("round")
def _round(x, args, arg_tys, result_ty):
    """Half away from zero (Rust `round`); exact: x - trunc(x) has no rounding error."""
    a = args[0]
    with np.errstate(all="ignore"):
        t = np.trunc(a)
        frac = a - t
        r = t + np.where(np.abs(frac) >= a.dtype.type(0.5), np.sign(a), a.dtype.type(0))
        return gpu_nans(np.copysign(r, a).astype(a.dtype), a)


# -- bits ---------------------------------------------------------------------------------

_POPC8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint32)


def _popcount(a: np.ndarray) -> np.ndarray:
    u = np.ascontiguousarray(unsigned_view(a))
    by = u.view(np.uint8).reshape(u.shape + (u.dtype.itemsize,))
    return _POPC8[by].sum(axis=-1, dtype=np.uint32)


def _bit_length(a: np.ndarray) -> np.ndarray:
    v = unsigned_view(a).astype(np.uint64)
    n = np.zeros(v.shape, dtype=np.uint32)
    for s in (32, 16, 8, 4, 2, 1):
        m = v >= np.uint64(1 << s)
        n[m] += s
        v = np.where(m, v >> np.uint64(s), v)
    return n + (v > 0)


@intrinsic("popc")
def _popc(x, args, arg_tys, result_ty):
    return _popcount(args[0])


@intrinsic("clz")
def _clz(x, args, arg_tys, result_ty):
    a = args[0]
    return (np.uint32(a.dtype.itemsize * 8) - _bit_length(a)).astype(np.uint32)


@intrinsic("ctz")
def _ctz(x, args, arg_tys, result_ty):
    a = args[0]
    u = unsigned_view(a)
    with np.errstate(all="ignore"):
        low = u & (~u + u.dtype.type(1))  # the lowest set bit
    bits = np.uint32(a.dtype.itemsize * 8)
    return np.where(u == 0, bits, _bit_length(low) - np.uint32(1)).astype(np.uint32)


# -- integer dot products ------------------------------------------------------------------

def _parts(v: np.ndarray, bits: int, count: int, signed: bool) -> list[np.ndarray]:
    """The `count` low `bits`-bit parts of u32 values, as int64 (sign-extended if signed)."""
    u = unsigned_view(v).astype(np.int64)
    out = []
    for i in range(count):
        p = (u >> (bits * i)) & ((1 << bits) - 1)
        out.append(np.where(p >= 1 << (bits - 1), p - (1 << bits), p) if signed else p)
    return out


def _dot(a_bits: int, count: int) -> Impl:
    def fn(x, args, arg_tys, result_ty):
        a, b, c = args
        signed = c.dtype.kind == "i"
        total = c.astype(np.int64)
        for pa, pb in zip(_parts(a, a_bits, count, signed), _parts(b, 8, count, signed)):
            total = total + pa * pb
        return (total & 0xFFFF_FFFF).astype(np.uint32).view(c.dtype)
    return fn


INTRINSICS.update({name: _dot(8, 4) if name.startswith("dp4a") else _dot(16, 2)
                   for name in ops.DOT_PRODUCTS})


@intrinsic("prmt")
def _prmt(x, args, arg_tys, result_ty):
    a, b, sel = (unsigned_view(v).astype(np.uint64) for v in args)
    source = a | (b << np.uint64(32))  # bytes 0..3 from a, 4..7 from b
    out = np.zeros(x.n, np.uint64)
    for k in range(4):
        nib = (sel >> np.uint64(4 * k)) & np.uint64(0xF)
        byte = (source >> ((nib & np.uint64(7)) * np.uint64(8))) & np.uint64(0xFF)
        sign = (byte >> np.uint64(7)) * np.uint64(0xFF)
        out |= np.where(nib >= 8, sign, byte) << np.uint64(8 * k)
    return out.astype(np.uint32)


# prmt modes: d.byte[k] = the byte of (a, b) at index(k, sel), sel = selector & 3
_PRMT_INDEX = {
    "f4e": lambda k, s: (s + k) % 8, "b4e": lambda k, s: (s - k) % 8,
    "rc8": lambda k, s: s, "ecl": lambda k, s: max(k, s), "ecr": lambda k, s: min(k, s),
    "rc16": lambda k, s: 2 * (s & 1) + (k & 1),
}


def _prmt_mode(mode: str):
    def fn(x, args, arg_tys, result_ty):
        a, b, sel = (unsigned_view(v).astype(np.uint64) for v in args)
        source = a | (b << np.uint64(32))
        s = (sel & np.uint64(3)).astype(np.int64)
        out = np.zeros(np.broadcast(a, b, sel).shape, np.uint64)
        for choice in range(4):
            word = np.uint64(0)
            for k in range(4):
                byte = (source >> np.uint64(8 * _PRMT_INDEX[mode](k, choice))) & np.uint64(0xFF)
                word = word | (byte << np.uint64(8 * k))
            out = np.where(s == choice, word, out)
        return out.astype(np.uint32)
    return fn


INTRINSICS.update({f"prmt.{m}": _prmt_mode(m) for m in _PRMT_INDEX})


# -- select, pointers ----------------------------------------------------------------------

@intrinsic("select")
def _select(x, args, arg_tys, result_ty):
    cond, a, b = args
    cond = cond.astype(bool)

    def pick(p, q):
        c = cond.reshape(cond.shape + (1,) * (np.ndim(p) - 1))
        return np.where(c, p, q)
    return tree_map(pick, a, b)


def _half(name: str):
    """`wide_lo`/`wide_hi` (passes/wide_ints.py): one half of a u128/i128, as u64 bits."""
    def fn(x, args, arg_tys, result_ty):
        return np.ascontiguousarray(args[0][name]).view(np.uint64)
    return fn


INTRINSICS["wide_lo"], INTRINSICS["wide_hi"] = _half("lo"), _half("hi")


@intrinsic("volatile_load")
def _volatile_load(x, args, arg_tys, result_ty):
    """`read_volatile`: the simulator runs every access in program order, as written."""
    return x.mem.load(canon(result_ty), args[0], x.lanes)


@intrinsic("volatile_store")
def _volatile_store(x, args, arg_tys, result_ty):
    x.mem.store(canon(arg_tys[1]), args[0], args[1], x.lanes)


@intrinsic("wide_pack")
def _wide_pack(x, args, arg_tys, result_ty):
    lo, hi = (np.asarray(a).astype(np.uint64) for a in args)
    dt = scalar_dtype(canon(result_ty))
    out = np.empty(np.broadcast(lo, hi).shape, dtype=dt)
    out["lo"] = lo
    out["hi"] = hi.view(dt["hi"])
    return out


@intrinsic("ptr_add")
def _ptr_add(x, args, arg_tys, result_ty):
    p, n = args
    pty = arg_tys[0]
    if not isinstance(pty, (T.PtrTy, T.RefTy)):
        raise SimError(f"`ptr_add` on a value of type `{pty}`")
    step = np.uint64(size_of(canon(pty.inner)))
    with np.errstate(all="ignore"):
        return p + n.astype(np.uint64) * step


@intrinsic("slice_from_parts")
def _slice_from_parts(x, args, arg_tys, result_ty):
    p, n = args
    return (p.astype(np.uint64), n.astype(np.uint64))


@intrinsic("dynamic_shared")
def _dynamic_shared(x, args, arg_tys, result_ty):
    """The address of this block's dynamic shared memory (after the static shared arrays)."""
    return x.shared_address(x.dynamic_shared_offset)


# -- warp collectives -----------------------------------------------------------------------
# Lanes are grouped in warps of 32 consecutive linear thread ids of a block. A source lane
# that does not exist or is not executing this statement yields the lane's own value.

def _width(args, i) -> np.ndarray | int:
    return args[i].astype(np.int64) if len(args) > i else 32


def _shuffle(x, value, src: np.ndarray, seg_lo: np.ndarray, seg_hi: np.ndarray):
    lanes = x.lanes
    lane = x.lane_id[lanes].astype(np.int64)
    ok = (src >= seg_lo) & (src < seg_hi) & (src < x.warp_size[lanes])
    src_lane = x.warp_base[lanes] + np.where(ok, src, lane)
    pos = x.position_of()[src_lane]
    own = np.arange(x.n)
    pos = np.where(ok & (pos >= 0), pos, own)
    return tree_map(lambda v: v[pos], value)


def _lane_bits(b: np.ndarray) -> np.ndarray:
    """The lane / delta operand as `shfl.sync` reads it: its low 5 bits."""
    return b.astype(np.int64) & 31


def _segment(x, width):
    lane = x.lane_id[x.lanes].astype(np.int64)
    lo = lane - lane % width
    return lane, lo, lo + width


@intrinsic("shuffle_xor")
def _shfl_xor(x, args, arg_tys, result_ty):
    lane, lo, hi = _segment(x, _width(args, 2))
    return _shuffle(x, args[0], lane ^ _lane_bits(args[1]), lo, hi)


@intrinsic("shuffle_down")
def _shfl_down(x, args, arg_tys, result_ty):
    lane, lo, hi = _segment(x, _width(args, 2))
    return _shuffle(x, args[0], lane + _lane_bits(args[1]), lo, hi)


@intrinsic("shuffle_up")
def _shfl_up(x, args, arg_tys, result_ty):
    lane, lo, hi = _segment(x, _width(args, 2))
    return _shuffle(x, args[0], lane - _lane_bits(args[1]), lo, hi)


@intrinsic("shuffle")
def _shfl_idx(x, args, arg_tys, result_ty):
    width = _width(args, 2)
    lane, lo, hi = _segment(x, width)
    return _shuffle(x, args[0], lo + _lane_bits(args[1]) % width, lo, hi)


def _warp_sum(x, weights: np.ndarray) -> np.ndarray:
    """Per active lane: the sum of `weights` over the active lanes of its warp (exact below
    2^53, which covers ballots and sums of 32 u32)."""
    wid = x.warp_index[x.lanes]
    sums = np.bincount(wid, weights=weights.astype(np.float64), minlength=x.nwarps)
    return sums[wid].astype(np.uint64)


def _ballot(x, pred: np.ndarray) -> np.ndarray:
    bits = np.where(pred.astype(bool), np.uint64(1) << x.lane_id[x.lanes].astype(np.uint64),
                    np.uint64(0))
    return _warp_sum(x, bits).astype(np.uint32)


@intrinsic("ballot")
def _vote_ballot(x, args, arg_tys, result_ty):
    return _ballot(x, args[0])


@intrinsic("active_mask")
def _activemask(x, args, arg_tys, result_ty):
    return _ballot(x, np.ones(x.n, dtype=bool))


@intrinsic("any")
def _vote_any(x, args, arg_tys, result_ty):
    return _ballot(x, args[0]) != 0


@intrinsic("all")
def _vote_all(x, args, arg_tys, result_ty):
    return _ballot(x, args[0]) == _ballot(x, np.ones(x.n, dtype=bool))


def _redux_add(x, args, arg_tys, result_ty):
    v = args[0]
    total = _warp_sum(x, unsigned_view(v).astype(np.uint64)) & np.uint64(0xFFFFFFFF)
    return total.astype(v.dtype)


def _redux(ufunc, identity) -> Impl:
    """A reduction over the active lanes of each warp, handed to every one of them."""
    def fn(x, args, arg_tys, result_ty):
        v = args[0]
        wid = x.warp_index[x.lanes]
        acc = np.full(x.nwarps, identity(v.dtype), dtype=v.dtype)
        ufunc.at(acc, wid, v)
        return acc[wid]
    return fn


INTRINSICS.update(INT_BITS)

from . import packed as _packed  # noqa: E402,F401  (registers the packed half pairs)
from . import warp as _warp  # noqa: E402,F401  (registers the masked collectives)
from . import asynchrony as _asynchrony  # noqa: E402,F401  (cp.async, mbarrier)
from . import tensor as _tensor  # noqa: E402,F401  (mma.sync, ldmatrix, stmatrix)
from . import tensor_sparse as _tensor_sparse  # noqa: E402,F401  (mma.sp)
from .rounding import INTRINSICS as _ROUNDING  # noqa: E402  (cuda_device::float)
from .fp8 import INTRINSICS as _FP8  # noqa: E402  (fp8 conversions)
INTRINSICS.update(_ROUNDING)
INTRINSICS.update(_FP8)


@intrinsic("vprintf")
def _vprintf(x, args, arg_tys, result_ty):
    """`gpu_printf!`: print (as the `printf` effect) and give vprintf's result, the number of
    arguments it printed."""
    x.printf(None, args)
    return np.full(x.n, len(args) - 1, dtype=np.int32)
