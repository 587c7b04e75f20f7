"""The MIR operations of the device: every `Intrinsic` and `Effect` name, one row each.

Phases after lowering read these rows instead of lists of their own: mir/typeof (result
types), borrowck/divergence (how results vary across threads, which operations every lane
or thread must reach), the passes (which operations stay where they are), the PTX emitter
(special registers print from `sreg`; everything else has an entry in ptx/intrinsics.py or
ptx/instrs.EFFECTS) and the simulator (`sim`: its operation in sim/intrinsics.py; None
means the simulator reports "GPU only"). tests/test_device_api.py checks that every row has
its emitter and simulator entries.
"""
from __future__ import annotations

from .model import PER_LANE, PER_WARP, UNIFORM, Op


def _sregs() -> list[Op]:
    rows = []
    for reg, varies, what in (("tid", PER_LANE, "thread index in the block"),
                              ("ntid", UNIFORM, "block size"),
                              ("ctaid", UNIFORM, "block index in the grid"),
                              ("nctaid", UNIFORM, "grid size in blocks")):
        rows += [Op(f"{reg}.{a}", "u32", sreg=f"%{reg}.{a}", varies=varies, doc=f"{what}, {a}")
                 for a in "xyz"]
    rows += [
        Op("laneid", "u32", sreg="%laneid", varies=PER_LANE, doc="lane in the warp"),
        # the warp of the thread in its block (linear thread index / 32, not `%warpid`,
        # a hardware slot), and the warps per block: emitted as arithmetic
        Op("warpid", "u32", varies=PER_WARP),
        Op("nwarpid", "u32"),
        # the hardware's own warp slot and its count (cuda-oxide's `warp::warpid`/`nwarpid`):
        # `%warpid` may change while a thread runs (the warp can be moved), so it is read
        # each time; the simulator's warps have slots 0.. in block order, of 64 (the H200's)
        Op("hw_warpid", "u32", sreg="%warpid", varies=PER_LANE, volatile=True,
           doc="the warp slot of the SM running this warp"),
        Op("hw_nwarpid", "u32", sreg="%nwarpid", doc="the number of warp slots"),
        Op("gridid", "u64", sreg="%gridid", doc="the launch's temporal grid number (the "
           "simulator counts its launches)"),
        Op("smid", "u32", sreg="%smid", doc="the SM running the block (the simulator is one "
           "SM: 0)"),
        Op("nsmid", "u32", sreg="%nsmid", doc="an upper bound of `smid` (simulator: 1)"),
        Op("dynamic_smem_size", "u32", sreg="%dynamic_smem_size",
           doc="bytes of dynamic shared memory the launch gave the block"),
        # counters: different in every thread and every time, so never moved by a pass
        # the simulator's clocks all count its steps (monotonic, as the GPU's)
        Op("clock", "u32", sreg="%clock", varies=PER_LANE, volatile=True, sim="clock"),
        Op("clock64", "u64", sreg="%clock64", varies=PER_LANE, volatile=True, sim="clock"),
        Op("globaltimer", "u64", sreg="%globaltimer", varies=PER_LANE, volatile=True,
           sim="clock", doc="nanoseconds"),
    ]
    rows += [Op(f"lanemask_{k}", "u32", sreg=f"%lanemask_{k}", varies=PER_LANE,
                doc=f"the lanes whose id is {cmp} this lane's")
             for k, cmp in (("lt", "<"), ("le", "<="), ("eq", "=="), ("ge", ">="), ("gt", ">"))]
    return rows


# Math on the operand's type: one instruction, or an inline routine of oxidec/mathlib.
MATH = ("sqrt", "abs", "min", "max", "fma", "floor", "ceil", "round", "trunc", "copysign",
        "rsqrt.approx", "rint")
# The routines computed in f32 on f32 (mathlib.NATIVE_F32); "<name>.exact" is the f64-based,
# correctly rounded version (the method `<name>_exact`).
F32_NATIVE = ("exp", "exp2", "ln", "log2", "log10", "sin", "cos", "tan", "tanh", "exp_m1")
MATH_ROUTINES = ("exp", "exp2", "ln", "log2", "log10", "sin", "cos", "tan", "atan", "atan2",
                 "tanh", "powf", "powi", "cbrt", "hypot",
                 *(f"{n}.exact" for n in F32_NATIVE),
                 # oxidec/mathlib/hyperbolic.py
                 "exp_m1", "ln_1p", "sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos")
FAST_MATH = ("exp.approx", "exp2.approx", "ln.approx", "log2.approx", "sin.approx",
             "cos.approx", "tanh.approx")
REDUX = ("add", "min", "max", "and", "or", "xor")
SHUFFLE_OPS = ("shuffle_xor", "shuffle_down", "shuffle_up", "shuffle")
DOT_PRODUCTS = tuple(f"{n}_{t}" for n in ("dp4a", "dp2a_lo") for t in ("u32", "i32"))


def _compute() -> list[Op]:
    return [
        *(Op(n, "arg0") for n in MATH + MATH_ROUTINES + FAST_MATH),
        Op("bitcast", "dest", doc="the same bits in the destination's type"),
        *(Op(n, "u32") for n in ("popc", "clz", "ctz")),
        # integer bit operations on the operand's type (lower/num_methods.py uses them)
        Op("brev", "arg0", doc="the bits in reverse order (`reverse_bits`)"),
        Op("bswap", "arg0", doc="the bytes in reverse order (`swap_bytes`)"),
        Op("mul_hi", "arg0", doc="(a, b) the high half of the double-width product"),
        Op("select", "arg1", doc="(cond, a, b)"),
        # the halves of a u128/i128 (passes/wide_ints.py): register moves
        Op("wide_lo", "u64", doc="(x: u128 or i128) its low 64 bits"),
        Op("wide_hi", "u64", doc="(x: u128 or i128) its high 64 bits, as raw bits"),
        Op("wide_pack", "dest", doc="(lo: u64, hi: u64) the u128 or i128 of those halves"),
        Op("ptr_add", "arg0", doc="(p, n): p + n elements"),
        Op("slice_from_parts", "dest", doc="(p, n): the fat pointer `&[T]` of n elements at p"),
        Op("dynamic_shared", "dest", doc="this block's dynamic shared memory, as *mut T"),
        # integer dot products (sm_61): (a: u32, b: u32, c) -> c + the sum of the products of
        # a's 4 bytes and b's (dp4a), or of a's 2 halves and b's low 2 bytes (dp2a.lo); s32:
        # the parts are signed. Wrapping, as the hardware's.
        *(Op(n, n.rpartition("_")[2], min_sm=61) for n in DOT_PRODUCTS),
        # (a, b, sel): byte k of the result is byte sel[4k+2:4k] of the 8 bytes {b, a}, or
        # with sel bit 4k+3 that byte's sign replicated
        Op("prmt", "u32", doc="`prmt.b32`: byte permute"),
        *(Op(f"atom.add.noftz.{k}x2", "u32", side_effect=True, varies=PER_LANE, min_sm=sm,
             doc="(p: *mut u32, v: u32) -> the old pair; both halves added in place")
          for k, sm in (("f16", 80), ("bf16", 90))),
        # `read_volatile`: a load no pass removes, merges, hoists or reorders (`ld.volatile`)
        Op("volatile_load", "dest", volatile=True, side_effect=True, varies=PER_LANE,
           doc="(p: *const T) -> T, read now from memory"),
        Op("vprintf", "i32", side_effect=True, varies=PER_LANE,
           doc="`gpu_printf!`: (format string index, values) -> vprintf's result (the number "
               "of arguments it printed; -1 on error)"),
        *(Op(f"prmt.{m}", "u32", doc=f"`prmt.b32.{m}`: (a, b, selector)")
          for m in ("b4e", "f4e", "ecl", "ecr", "rc8", "rc16")),
    ]


def _warp() -> list[Op]:
    # Full-warp collectives: every lane of the warp reaches them together.
    coll = dict(sync="warp", convergent=True)
    return [
        *(Op(n, "arg0", **coll) for n in SHUFFLE_OPS),
        Op("ballot", "u32", warp_uniform_result=True, **coll),
        Op("any", "bool", warp_uniform_result=True, **coll),
        Op("all", "bool", warp_uniform_result=True, **coll),
        # the lanes that reach it: legal anywhere, but its value depends on where it is
        Op("active_mask", "u32", varies=PER_WARP, convergent=True),
        *_masked(),
    ]


def _masked() -> list[Op]:
    """The `*_sync(mask, ..)` collectives: the first operand names the lanes that take part
    (`sync="mask"`); those lanes, and no others, must reach it together (the divergence
    check compares the mask with the conditions around it; the simulator checks it when it
    runs). A constant full mask makes it a full-warp collective."""
    coll = dict(sync="mask", convergent=True)
    return [
        *(Op(f"{n}_sync", "arg1", **coll, doc="(mask, value, lane or delta)")
          for n in SHUFFLE_OPS),
        *(Op(f"{n}_sync", r, warp_uniform_result=True, **coll, doc="(mask, predicate)")
          for n, r in (("ballot", "u32"), ("any", "bool"), ("all", "bool"), ("uni", "bool"))),
        Op("match_any_sync", "u32", min_sm=70, **coll,
           doc="(mask, value): the lanes of the mask whose value equals this lane's"),
        Op("match_all_sync", "u32", min_sm=70, warp_uniform_result=True, **coll,
           doc="(mask, value): the mask when every lane's value is equal, else 0"),
        # redux.sync (sm_80): add/min/max signed or unsigned by the value's type
        *(Op(f"redux_sync_{k}", "arg1", warp_uniform_result=True, min_sm=80, **coll,
             doc="(mask, value)") for k in REDUX),
        Op("elect_sync", "dest", min_sm=90, **coll,
           doc="(mask) -> (leader lane, this lane is the leader): one lane of the mask"),
        Op("warp_sync", "unit", effect=True, sim="warp_sync", **coll,
           doc="`bar.warp.sync mask` (__syncwarp): the lanes of the mask meet"),
    ]


def _effects() -> list[Op]:
    return [
        Op("sync_threads", "unit", effect=True, sync="block", convergent=True,
           doc="`bar.sync 0`: every thread of the block"),
        Op("grid_sync", "unit", effect=True, sync="block", convergent=True,
           doc="`grid::sync()`: every thread of the grid (a cooperative launch; ptx/grid.py)"),
        Op("printf", "unit", effect=True,
           doc="(format string index, values) -> vprintf (panic messages)"),
        Op("volatile_store", "unit", effect=True,
           doc="(p: *mut T, value): `write_volatile`, written now to memory (`st.volatile`)"),
        Op("nanosleep", "unit", effect=True, min_sm=70, sim="noop",
           doc="(ns: u32) suspend the thread for about ns nanoseconds (at most 1 ms)"),
        Op("breakpoint", "unit", effect=True, volatile=True,
           doc="`brkpt`: stop in a debugger (cuda-gdb); without one the kernel faults "
               "(CUDA_ERROR_LAUNCH_FAILED on the H200), and the simulator traps"),
        Op("pmevent", "unit", effect=True, sim="noop",
           doc="(const N: 0..=15) signal performance-monitor event N (profilers count it)"),
        # memory fences: the simulator runs one statement for all lanes at a time, so every
        # write is visible to every thread at once, which any fence allows
        *(Op(f"threadfence{k}", "unit", effect=True, sim="noop", doc=f"`membar.{lvl}`")
          for k, lvl in (("", "gl"), ("_block", "cta"), ("_system", "sys"))),
    ]


def _packed() -> list[Op]:
    from .packed import ops
    return ops()


def _asynchrony() -> list[Op]:
    from .asynchrony import ops
    return ops()


def _tensor() -> list[Op]:
    from .tensor import ops
    return ops()


def _hopper() -> list[Op]:
    """sm_90 rows: clusters (cluster.py), TMA (tma.py), wgmma (wgmma.py, sm_90a)."""
    from . import cluster, tma, wgmma
    return cluster.ops() + tma.ops() + wgmma.ops()


def _rounding() -> list[Op]:
    from . import fp8, rounding
    return rounding.ops() + fp8.ops()


OPS: dict[str, Op] = {o.name: o for o in _sregs() + _compute() + _warp() + _effects()
                      + _packed() + _asynchrony() + _tensor() + _hopper() + _rounding()}

# The sets passes ask for (Effects stay where they are anyway).
CONVERGENT = frozenset(o.name for o in OPS.values() if o.convergent and not o.effect)
VOLATILE = frozenset(o.name for o in OPS.values() if o.volatile or o.side_effect)
SIDE_EFFECTS = frozenset(o.name for o in OPS.values() if o.side_effect)
BARRIERS = frozenset(o.name for o in OPS.values() if o.effect and o.sync == "block")
