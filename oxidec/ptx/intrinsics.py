"""`Intrinsic` rvalues: special registers, math, bit counts, select, pointer offsets,
and warp operations. `INTRINSICS` maps each name to the function that emits it; every name
has a row in the device API registry (oxidec/device_api/ops.py), and a row with a special
register (`sreg`) needs no entry here beyond `special`.

Names beyond the MIR docstring's list (all additive): "nwarpid" (warps per block, as
the simulator defines it), "copysign", "bitcast" (same-width reinterpretation),
the accurate math routines of oxidec/mathlib ("exp", "exp2", "ln", "log2", "log10", "sin",
"cos", "tan", "atan", "atan2", "tanh", "powf", "powi", "cbrt", "hypot": emitted inline from
the routine's op list), and their fast variants "exp.approx", "exp2.approx", "ln.approx",
"log2.approx", "sin.approx", "cos.approx", "tanh.approx", "rsqrt.approx" (f32: the hardware
MUFU unit; on f64 the accurate routine),
"shuffle_xor", "shuffle_down", "shuffle_up", "shuffle" (value, lane/delta: u32),
"ballot", "any", "all" (bool), "active_mask", "redux_sync_add" / "_min" / "_max" / "_and" /
"_or" / "_xor" (u32), "clock64",
"dynamic_shared" (the block's `extern .shared` array).
Warp operations use the full-warp member mask, as cuda-oxide's `warp::` functions do.
"""
from __future__ import annotations

from ..device_api import ops
from ..device_api.ops import OPS
from ..mir import syntax as mir
from ..mir.typeof import operand_ty
from ..types import SCALARS, U32, U64, FloatTy, IntTy, Ty
from . import (asynchrony, atomics, cluster, fp8, grid, legalize, packed, rounding, tensor,
               tma, vprintf, warp, wgmma)
from .int_bits import INT_BITS
from .instrs import (FLOAT_APPROX, FLOAT_MATH, INT_MATH, MAGNITUDE_BITS, SHUFFLE_MODES, VOTES,
                     fill, instr)
from .places import MemPlace, Val
from .spaces import GENERIC, join, representation
from .types import (PtxEmitError, arith, bits_suffix, is_thin_pointer, leaf_types, mem_size,
                    pointee, reg_class)

FULL_MASK = warp.FULL_MASK


def emit_intrinsic(em, rv: mir.Intrinsic, ty: Ty, hint) -> list[Val]:
    handler = INTRINSICS.get(rv.name)
    if handler is None:
        raise PtxEmitError(f"unsupported intrinsic `{rv.name}`")
    return handler(em, rv, ty, hint)


def _dst(em, ty: Ty, hint) -> str:
    return hint[0] if hint else em.tmp(ty)


def _leaf(ty: Ty) -> Ty:
    leaves = leaf_types(ty)
    if len(leaves) != 1:
        raise PtxEmitError(f"an intrinsic cannot produce `{ty}`")
    return leaves[0]


def _args(em, rv) -> list[Val]:
    return [em.scalar(em.operand(op)) for op in rv.args]


# ---------------------------------------------------------------------------
# Special registers

def special(em, rv, ty, hint) -> list[Val]:
    """A special register (the registry row's `sreg`) of 32 or 64 bits; a wider destination
    gets a zero extension."""
    width = SCALARS[OPS[rv.name].result]
    leaf = _leaf(ty)
    if width == U64:
        dst = _dst(em, U64, hint)
        em.emit(instr("mov.u64", dst, OPS[rv.name].sreg))
        return [Val(dst, leaf)]
    wide = leaf != U32
    dst = em.tmp(U32) if wide else _dst(em, U32, hint)
    if rv.name == "warpid":
        _linear_warp(em, dst)
    elif rv.name == "nwarpid":
        _warps_per_block(em, dst)
    else:
        em.emit(instr("mov.u32", dst, OPS[rv.name].sreg))
    if not wide:
        return [Val(dst, U32)]
    out = _dst(em, leaf, hint)
    legalize.cast(em, Val(dst, U32), leaf, out)
    return [Val(out, leaf)]


def _linear_warp(em, dst: str) -> None:
    """The warp of this thread within its block: linear thread index / 32. Not
    `%warpid`, which names a hardware slot and may change while a thread runs."""
    r = {name: em.tmp(U32) for name in ("x", "y", "z", "nx", "ny")}
    for axis in "xyz":
        em.emit(instr("mov.u32", r[axis], f"%tid.{axis}"))
    em.emit(instr("mov.u32", r["nx"], "%ntid.x"))
    em.emit(instr("mov.u32", r["ny"], "%ntid.y"))
    em.emit(instr("mad.lo.u32", r["z"], r["z"], r["ny"], r["y"]))
    em.emit(instr("mad.lo.u32", r["z"], r["z"], r["nx"], r["x"]))
    em.emit(instr("shr.u32", dst, r["z"], "5"))


def _warps_per_block(em, dst: str) -> None:
    """Warps in this block: ceil(threads / 32) (not `%nwarpid`, a hardware maximum)."""
    r = {axis: em.tmp(U32) for axis in "xyz"}
    for axis in "xyz":
        em.emit(instr("mov.u32", r[axis], f"%ntid.{axis}"))
    em.emit(instr("mul.lo.u32", r["x"], r["x"], r["y"]))
    em.emit(instr("mad.lo.u32", r["x"], r["x"], r["z"], "31"))
    em.emit(instr("shr.u32", dst, r["x"], "5"))


def dynamic_shared(em, rv, ty, hint) -> list[Val]:
    """The address of the block's dynamic shared memory (`extern .shared dyn_smem[]`)."""
    from .module import DYNAMIC_SHARED
    em.module.uses_dynamic_shared = True
    if rv.args:  # DynamicSharedArray::<T, ALIGN> with ALIGN above 16
        em.module.dynamic_shared_align = max(em.module.dynamic_shared_align, rv.args[0].value)
    contract = em.body.launch.contract if em.body.launch is not None else None
    if contract is not None and contract.dynamic_shared_alignment:  # #[launch_contract(..)]
        em.module.dynamic_shared_align = max(em.module.dynamic_shared_align,
                                             contract.dynamic_shared_alignment)
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    em.emit(instr("mov.u64", dst, DYNAMIC_SHARED))
    return [Val(dst, leaf, "shared")]


# ---------------------------------------------------------------------------
# Math

def math(em, rv, ty, hint) -> list[Val]:
    args = _args(em, rv)
    leaf = _leaf(ty)
    x = args[0]
    dst = _dst(em, leaf, hint)
    if isinstance(x.ty, FloatTy) and x.ty.bits == 16:
        if rv.name not in ("fma", "abs"):  # lowering widens the rest to f32 (lower/halves.py)
            raise PtxEmitError(f"unsupported intrinsic `{rv.name}` on `{x.ty}`")
        _float_math(em, rv.name, [em.as_reg(a) for a in args], dst)
    elif isinstance(x.ty, FloatTy):
        _float_math(em, rv.name, args, dst)
    elif isinstance(x.ty, IntTy) and rv.name in INT_MATH:
        if rv.name == "abs" and not x.ty.signed:
            em.emit(instr(f"mov.{bits_suffix(x.ty)}", dst, x.text))
        else:
            em.emit(instr(fill(INT_MATH[rv.name], s=arith(x.ty)), dst, *(a.text for a in args)))
            if rv.name == "abs":  # abs(i8::MIN) wraps to i8::MIN
                legalize.rewrap(em, dst, x.ty)
    else:
        raise PtxEmitError(f"unsupported intrinsic `{rv.name}` on `{x.ty}`")
    return [Val(dst, leaf)]


def _float_math(em, name: str, args: list[Val], dst: str) -> None:
    x = args[0]
    f = arith(x.ty)
    if name == "round":
        legalize.round_half_away(em, x, dst)
    elif name == "abs" and x.ty.bits in MAGNITUDE_BITS:
        em.emit(instr(f"and.b{x.ty.bits}", dst, x.text, MAGNITUDE_BITS[x.ty.bits]))
    elif name in FLOAT_MATH:
        operands = [a.text for a in args]
        if name == "copysign":  # Rust: x.copysign(sign); PTX: copysign d, sign, x
            operands.reverse()
        em.emit(instr(fill(FLOAT_MATH[name], f=f), dst, *operands))
    elif name in FLOAT_APPROX and f == "f32":
        em.emit(instr(FLOAT_APPROX[name], dst, x.text))
    elif name in ("exp.approx", "ln.approx") and f == "f32":
        _exp_ln(em, name, x, dst)
    else:
        raise PtxEmitError(f"unsupported intrinsic `{name}` on `{x.ty}`")


def _exp_ln(em, name: str, x: Val, dst: str) -> None:
    """exp(x) = 2^(x*log2 e), ln(x) = log2(x)*ln 2 (approximate, f32)."""
    t = em.tmp(x.ty)
    if name == "exp.approx":
        em.emit(instr("mul.rn.f32", t, x.text, "0f3FB8AA3B"))
        em.emit(instr("ex2.approx.f32", dst, t))
    else:
        em.emit(instr("lg2.approx.f32", t, x.text))
        em.emit(instr("mul.rn.f32", dst, t, "0f3F317218"))


def math_routine(em, rv, ty, hint) -> list[Val]:
    """An accurate routine of oxidec/mathlib, inline; a fast variant on f64 is the accurate
    routine (there is no f64 MUFU)."""
    from ..mathlib import FAST, emit_ptx
    args = _args(em, rv)
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    if rv.name in FAST and args[0].ty.bits == 32:
        _float_math(em, rv.name, args, dst)
    else:
        emit_ptx(em, FAST.get(rv.name, rv.name), args, dst)
    return [Val(dst, leaf)]


def bitcast(em, rv, ty, hint) -> list[Val]:
    """`to_bits` / `from_bits`: the same bits in the other type's register."""
    (x,) = _args(em, rv)
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    if leaf.bits == 16:  # a half and a u16: a .b16 register and a 32-bit one
        x = em.as_reg(x)
        em.emit(instr("cvt.u32.u16" if isinstance(leaf, IntTy) else "cvt.u16.u32", dst, x.text))
    else:
        em.emit(instr(f"mov.b{leaf.bits}", dst, x.text))
    return [Val(dst, leaf)]


def count(em, rv, ty, hint) -> list[Val]:
    """popc/clz/ctz are u32; a 64-bit destination gets the count zero-extended."""
    x = em.scalar(em.operand(rv.args[0]))
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    if reg_class(leaf).name != "b64":
        legalize.count_bits(em, rv.name, x, dst)
    else:
        n = em.tmp(U32)
        legalize.count_bits(em, rv.name, x, n)
        em.emit(instr("cvt.u64.u32", dst, n))
    return [Val(dst, leaf)]


# ---------------------------------------------------------------------------
# Select and pointers

def select(em, rv, ty, hint) -> list[Val]:
    """select(cond, a, b) leaf by leaf (any type, including structs and Options)."""
    cond = em.scalar(em.operand(rv.args[0]))
    a, b = em.operand(rv.args[1]), em.operand(rv.args[2])
    leaves = leaf_types(ty)
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if is_thin_pointer(x.ty) and representation(x.space) != representation(y.space):
            x, y = em.coerce(x, GENERIC), em.coerce(y, GENERIC)
        dst = hint[0] if len(leaves) == 1 and hint else em.tmp(leaves[i])
        legalize.select(em, cond, x, y, dst)
        out.append(Val(dst, leaves[i], join(x.space, y.space)))
    return out


def wide_half(em, rv, ty, hint) -> list[Val]:
    """`wide_lo`/`wide_hi` (passes/wide_ints.py): a u128's half is its own register."""
    lo, hi = em.operand(rv.args[0])
    return [lo if rv.name == "wide_lo" else hi]


def wide_pack(em, rv, ty, hint) -> list[Val]:
    """`wide_pack(lo, hi)`: the two halves are the u128's two leaves."""
    return [em.scalar(em.operand(a)) for a in rv.args]


def volatile_load(em, rv, ty, hint) -> list[Val]:
    """`read_volatile`: `ld.volatile` of every leaf, in the pointer's state space."""
    p = em.scalar(em.operand(rv.args[0]))
    return em.load(MemPlace(ty, p, 0), hint, volatile=True)


def volatile_store(em, stmt: mir.Effect) -> None:
    """`write_volatile`: `st.volatile` of every leaf."""
    p = em.scalar(em.operand(stmt.args[0]))
    ty = operand_ty(em.body, stmt.args[1])
    em.store(MemPlace(ty, p, 0), em.operand(stmt.args[1]), volatile=True)


def ptr_add(em, rv, ty, hint) -> list[Val]:
    """p + n * size_of(*p); a 32-bit n multiplies wide (one IMAD.WIDE)."""
    p, n = _args(em, rv)
    size = mem_size(pointee(p.ty))
    dst = _dst(em, p.ty, hint)
    p = em.as_reg(p)
    if n.imm:
        em.emit(instr("add.s64", dst, p.text, str(int(n.text, 0) * size)))
    elif isinstance(n.ty, IntTy) and n.ty.bits <= 32:
        sign = "s" if n.ty.signed else "u"
        em.emit(instr(f"mad.wide.{sign}32", dst, n.text, str(size), p.text))
    else:
        em.emit(instr("mad.lo.s64", dst, n.text, str(size), p.text))
    return [Val(dst, p.ty, p.space)]


def slice_from_parts(em, rv, ty, hint) -> list[Val]:
    """(p, n) -> the two leaves of a fat `&[T]`: the data pointer (keeping p's space) and
    the element count. Only moves values; sub-slices and `from_raw_parts` make it."""
    p, n = _args(em, rv)
    return [p, n]


# ---------------------------------------------------------------------------
# Warp operations

def shuffle(em, rv, ty, hint) -> list[Val]:
    """shfl.sync on 32-bit values; 64-bit values move as two halves."""
    v, lane = _args(em, rv)
    mode, clamp = SHUFFLE_MODES[rv.name]
    return warp.shuffle_value(em, mode, clamp, v, lane, FULL_MASK, ty, hint)


def vote(em, rv, ty, hint) -> list[Val]:
    (p,) = _args(em, rv)
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    em.emit(instr(VOTES[rv.name], dst, legalize.pred(em, p), FULL_MASK))
    return [Val(dst, leaf)]


def active_mask(em, rv, ty, hint) -> list[Val]:
    dst = _dst(em, U32, hint)
    em.emit(instr("activemask.b32", dst))
    return [Val(dst, U32)]


def dot_product(em, rv, ty, hint) -> list[Val]:
    """`dp4a_<t>` / `dp2a_lo_<t>` (sm_61): c + the dot product of a's and b's parts."""
    a, b, c = (em.as_reg(v) for v in _args(em, rv))
    name, _, t = rv.name.rpartition("_")
    s = "s32" if t == "i32" else "u32"
    opcode = f"dp4a.{s}.{s}" if name == "dp4a" else f"dp2a.lo.{s}.{s}"
    leaf = _leaf(ty)
    dst = _dst(em, leaf, hint)
    em.emit(instr(opcode, dst, a.text, b.text, c.text))
    return [Val(dst, leaf)]


INTRINSICS = {name: special for name, op in OPS.items() if op.sreg}
INTRINSICS.update({"warpid": special, "nwarpid": special})
INTRINSICS.update({name: math for name in ops.MATH})
INTRINSICS.update({name: math_routine for name in ops.MATH_ROUTINES + ops.FAST_MATH})
INTRINSICS["bitcast"] = bitcast
INTRINSICS["vprintf"] = vprintf.emit_vprintf
INTRINSICS.update({f"atom.add.noftz.{k}x2": atomics.emit_packed_add for k in ("f16", "bf16")})
INTRINSICS.update({name: count for name in ("popc", "clz", "ctz")})
INTRINSICS.update({name: shuffle for name in SHUFFLE_MODES})
INTRINSICS.update({name: vote for name in VOTES if name != "uni"})  # uni: masked only
INTRINSICS.update(warp.MASKED)
INTRINSICS.update(packed.PACKED)
INTRINSICS.update(asynchrony.INTRINSICS)
INTRINSICS.update(tensor.INTRINSICS)
INTRINSICS.update(cluster.INTRINSICS)
INTRINSICS.update(wgmma.INTRINSICS)
INTRINSICS.update(rounding.INTRINSICS)
INTRINSICS.update(fp8.INTRINSICS)
INTRINSICS.update({
    "select": select,
    "ptr_add": ptr_add,
    "volatile_load": volatile_load,
    "wide_lo": wide_half, "wide_hi": wide_half, "wide_pack": wide_pack,
    "slice_from_parts": slice_from_parts,
    "active_mask": active_mask,
    "dynamic_shared": dynamic_shared,
    **{name: dot_product for name in ops.DOT_PRODUCTS},
    "prmt": lambda em, rv, ty, hint: packed.arith(em, mir.Intrinsic("prmt.b32", rv.args), ty,
                                                  hint),
    **{f"prmt.{m}": (lambda m: lambda em, rv, ty, hint: packed.arith(
        em, mir.Intrinsic(f"prmt.b32.{m}", rv.args), ty, hint))(m)
       for m in ("b4e", "f4e", "ecl", "ecr", "rc8", "rc16")},
    **INT_BITS,
})


# ---------------------------------------------------------------------------
# Effects with operands (those without are one line of instrs.EFFECTS; printf: vprintf.py)

def nanosleep(em, stmt: mir.Effect) -> None:
    """`barrier::nanosleep(ns)` (sm_70): suspend the thread for about ns nanoseconds."""
    (t,) = [em.scalar(em.operand(a)) for a in stmt.args]
    em.emit(instr("nanosleep.u32", t.text))


def pmevent(em, stmt: mir.Effect) -> None:
    """`debug::prof_trigger::<N>()`: `pmevent N` (N an immediate in 0..=15)."""
    (n,) = stmt.args
    if not (isinstance(n, mir.Constant) and isinstance(n.value, int) and 0 <= n.value <= 15):
        raise PtxEmitError("`pmevent` needs a constant event number in 0..=15")
    em.emit(instr("pmevent", str(n.value)))


EFFECTS_WITH_OPERANDS = {"nanosleep": nanosleep, "pmevent": pmevent,
                         "volatile_store": volatile_store,
                         "warp_sync": warp.warp_sync, **asynchrony.EFFECTS, **tensor.EFFECTS,
                         **cluster.EFFECTS, **grid.EFFECTS, **tma.EFFECTS,
                         **wgmma.EFFECTS_WITH_OPERANDS}
