"""Legalisation: operations whose PTX form is not one table entry.

- Narrow integers (8/16-bit) are held sign/zero-extended in 32-bit registers; after an
  operation that can carry out of the narrow width (`WRAPS`) the value is re-extended
  (`and.b32 255` for u8, `cvt.s32.s8` for i8), which is exactly Rust's wrapping result.
  Logic ops, shr, rem and comparisons keep the extended form and need nothing.
- Shift amounts are masked to the width (`and.b32 %r, amt, 31`) as Rust release does.
- Bool comparisons and selects become predicate logic (setp has no `.pred` form).
- Casts follow Rust `as`: float->int saturates with NaN -> 0 (PTX `cvt.rzi` saturates;
  NaN is selected to 0 where the hardware gives MIN, narrow results are clamped
  explicitly), int->int truncates or
  extends by the source's signedness.
- `round` rounds half away from zero: `cvt.rni` would round half to even.
- float `rem` is Rust's fmod, exact for every quotient: mathlib's `fmod` routine.
"""
from __future__ import annotations

from ..types import BOOL, U32, BoolTy, FloatTy, IntTy, Ty, is_half
from .instrs import instr
from .places import Val
from .types import PtxEmitError, arith, is_narrow, is_thin_pointer, reg_class

# Integer operations whose 32-bit result may leave the narrow type's range.
WRAPS = {"add", "sub", "mul", "div", "shl", "neg", "abs"}

NARROW_LIMITS = {  # (bits, signed) -> (min, max)
    (8, False): (0, 0xFF), (16, False): (0, 0xFFFF),
    (8, True): (-0x80, 0x7F), (16, True): (-0x8000, 0x7FFF),
}


def rewrap(em, reg: str, ty: Ty) -> None:
    """Re-extend a narrow integer in `reg` to its canonical 32-bit form."""
    if not is_narrow(ty):
        return
    if ty.signed:
        em.emit(instr(f"cvt.s32.s{ty.bits}", reg, reg))
    else:
        em.emit(instr("and.b32", reg, reg, str((1 << ty.bits) - 1)))


def shift_amount(em, amount: Val, bits: int) -> str:
    """The shift amount as a u32 masked to the shifted type's width."""
    mask = bits - 1
    if amount.imm:
        return str(int(amount.text, 0) & mask)
    text = amount.text
    if reg_class(amount.ty).name == "b64":
        narrowed = em.tmp(U32)
        em.emit(instr("cvt.u32.u64", narrowed, text))
        text = narrowed
    masked = em.tmp(U32)
    em.emit(instr("and.b32", masked, text, str(mask)))
    return masked


def pred(em, v: Val) -> str:
    """A predicate register for a bool value (immediates materialised)."""
    if not v.imm:
        return v.text
    p = em.tmp(BOOL)
    em.emit(instr("mov.pred", p, v.text))
    return p


def negate(em, p: str) -> str:
    q = em.tmp(BOOL)
    em.emit(instr("not.pred", q, p))
    return q


def bool_compare(em, op: str, a: Val, b: Val, dst: str) -> None:
    """Comparisons of bools (false < true) as predicate logic."""
    pa, pb = pred(em, a), pred(em, b)
    if op == "ne":
        em.emit(instr("xor.pred", dst, pa, pb))
    elif op == "eq":
        t = em.tmp(BOOL)
        em.emit(instr("xor.pred", t, pa, pb))
        em.emit(instr("not.pred", dst, t))
    elif op in ("lt", "ge"):  # a < b == !a & b; a >= b == a | !b
        if op == "lt":
            em.emit(instr("and.pred", dst, negate(em, pa), pb))
        else:
            em.emit(instr("or.pred", dst, pa, negate(em, pb)))
    elif op in ("gt", "le"):  # a > b == a & !b; a <= b == !a | b
        if op == "gt":
            em.emit(instr("and.pred", dst, pa, negate(em, pb)))
        else:
            em.emit(instr("or.pred", dst, negate(em, pa), pb))
    else:
        raise PtxEmitError(f"no bool comparison `{op}`")


def select(em, cond: Val, a: Val, b: Val, dst: str) -> None:
    """dst = cond ? a : b for one leaf (selp has no predicate form)."""
    c = pred(em, cond)
    if isinstance(a.ty, BoolTy):
        t = em.tmp(BOOL)
        em.emit(instr("mov.pred", t, pred(em, b)))
        em.emit(f"@{c} " + instr("mov.pred", t, pred(em, a)))
        em.emit(instr("mov.pred", dst, t))
        return
    suffix = "b64" if reg_class(a.ty).name == "b64" else arith_or_bits(a.ty)
    em.emit(instr(f"selp.{suffix}", dst, a.text, b.text, c))


def arith_or_bits(ty: Ty) -> str:
    if isinstance(ty, FloatTy) and ty.bits == 16:
        return "b16"
    return arith(ty) if isinstance(ty, FloatTy) else "b32"


# ---------------------------------------------------------------------------
# Floats

def float_rem(em, a: Val, b: Val, dst: str) -> None:
    """Rust's `%` on floats (C fmod), exact: oxidec/mathlib/fmod.py's long division, the
    routine the simulator runs too."""
    from ..mathlib import emit_ptx
    emit_ptx(em, "fmod", [a, b], dst)


def round_half_away(em, x: Val, dst: str) -> None:
    """x + copysign(0.5, x) rounded toward zero, then truncated (CUDA's roundf)."""
    f = arith(x.ty)
    half = "0f3F000000" if f == "f32" else "0d3FE0000000000000"
    t = em.tmp(x.ty)
    em.emit(instr(f"copysign.{f}", t, x.text, half))
    em.emit(instr(f"add.rz.{f}", t, x.text, t))
    em.emit(instr(f"cvt.rzi.{f}.{f}", dst, t))


# ---------------------------------------------------------------------------
# Casts

def cast(em, v: Val, to: Ty, dst: str) -> None:
    """dst = v as `to`, for scalar leaves (pointers are handled by the caller)."""
    src = v.ty
    if isinstance(src, BoolTy):
        if isinstance(to, BoolTy):
            em.emit(instr("mov.pred", dst, pred(em, v)))
        elif isinstance(to, IntTy):
            suffix = "u64" if to.bits == 64 else "u32"
            em.emit(instr(f"selp.{suffix}", dst, "1", "0", pred(em, v)))
        else:
            raise PtxEmitError(f"cannot cast bool to `{to}`")
    elif is_half(src) or is_half(to):
        from . import halves
        halves.cast(em, v, to, dst)
    elif isinstance(src, IntTy) and isinstance(to, IntTy):
        int_to_int(em, v, to, dst)
    elif isinstance(src, IntTy) and isinstance(to, FloatTy):
        em.emit(instr(f"cvt.rn.f{to.bits}.{arith(src)}", dst, v.text))
    elif isinstance(src, FloatTy) and isinstance(to, IntTy):
        float_to_int(em, v, to, dst)
    elif isinstance(src, FloatTy) and isinstance(to, FloatTy):
        if src.bits == to.bits:
            em.emit(instr(f"mov.f{to.bits}", dst, v.text))
        elif to.bits == 64:
            em.emit(instr("cvt.f64.f32", dst, v.text))
        else:
            em.emit(instr("cvt.rn.f32.f64", dst, v.text))
    elif is_thin_pointer(src) and isinstance(to, IntTy):  # a generic address
        value = em.coerce(v, "generic")
        em.emit(instr("mov.b64" if to.bits == 64 else "cvt.u32.u64", dst, value.text))
    elif isinstance(src, IntTy) and is_thin_pointer(to):
        em.emit(instr("mov.b64", dst, v.text) if src.bits == 64
                else instr(f"cvt.u64.{arith(src)}", dst, v.text))
    else:
        raise PtxEmitError(f"cannot cast `{src}` to `{to}`")


def int_to_int(em, v: Val, to: IntTy, dst: str) -> None:
    src = v.ty
    wide_src, wide_dst = src.bits == 64, to.bits == 64
    if wide_src and wide_dst:
        em.emit(instr("mov.b64", dst, v.text))
        return
    if wide_dst:  # the 32-bit register is already extended by the source's signedness
        em.emit(instr(f"cvt.{'s' if src.signed else 'u'}64.{arith(src)}", dst, v.text))
        return
    if wide_src:
        em.emit(instr("cvt.u32.u64", dst, v.text))
    else:
        em.emit(instr("mov.b32", dst, v.text))
    if is_narrow(to) and not _already_canonical(src, to):
        rewrap(em, dst, to)


def _already_canonical(src: IntTy, to: IntTy) -> bool:
    """Whether the extended source register is already the extended `to` value."""
    if src.bits == 64:
        return False
    if src.signed == to.signed:
        return to.bits >= src.bits
    return not src.signed and to.bits > src.bits


def float_to_int(em, v: Val, to: IntTy, dst: str) -> None:
    """Rust `as`: truncate, saturate, NaN -> 0. `cvt.rzi` saturates, but the hardware's NaN
    result is 0 only for f32 to a 32-bit integer; from f64, and from f32 to 64 bits, it is
    the type's MIN (or 2^63 for u64), so those conversions select 0 for a NaN explicitly."""
    f = arith(v.ty)
    sign = "s" if to.signed else "u"
    x = v.text
    if v.imm:  # setp takes no two immediates
        x = em.tmp(v.ty)
        em.emit(instr(f"mov.{f}", x, v.text))
    nan_is_min = f == "f64" or to.bits == 64
    if not is_narrow(to):
        em.emit(instr(f"cvt.rzi.{sign}{to.bits}.{f}", dst, x))
        if nan_is_min:
            _nan_to_zero(em, x, f, dst, f"b{to.bits}")
        return
    # Saturate to 32 bits (NaN -> 0), then clamp to the narrow range.
    low, high = NARROW_LIMITS[(to.bits, to.signed)]
    wide = em.tmp(U32)
    em.emit(instr(f"cvt.rzi.{sign}32.{f}", wide, x))
    if nan_is_min:
        _nan_to_zero(em, x, f, wide, "b32")
    if to.signed:
        em.emit(instr("max.s32", wide, wide, str(low)))
    em.emit(instr(f"min.{sign}32", dst, wide, str(high)))


def _nan_to_zero(em, x: str, f: str, reg: str, bits: str) -> None:
    nan = em.tmp(BOOL)
    em.emit(instr(f"setp.nan.{f}", nan, x, x))
    em.emit(instr(f"selp.{bits}", reg, "0", reg, nan))


# ---------------------------------------------------------------------------
# Bit counting (results are u32)

def count_bits(em, name: str, v: Val, dst: str) -> None:
    ty = v.ty
    if not isinstance(ty, IntTy):
        raise PtxEmitError(f"`{name}` needs an integer, not `{ty}`")
    b = "b64" if ty.bits == 64 else "b32"
    x = v.text
    if name == "ctz":
        if is_narrow(ty):  # a guard bit above the width makes ctz(0) == bits
            t = em.tmp(U32)
            em.emit(instr("or.b32", t, x, str(1 << ty.bits)))
            x = t
        r = em.tmp(ty if ty.bits == 64 else U32)
        em.emit(instr(f"brev.{b}", r, x))
        em.emit(instr(f"clz.{b}", dst, r))
        return
    if is_narrow(ty) and ty.signed:  # count only the narrow bits
        t = em.tmp(U32)
        em.emit(instr("and.b32", t, x, str((1 << ty.bits) - 1)))
        x = t
    if name == "popc":
        em.emit(instr(f"popc.{b}", dst, x))
    elif not is_narrow(ty):
        em.emit(instr(f"clz.{b}", dst, x))
    else:
        t = em.tmp(U32)
        em.emit(instr("clz.b32", t, x))
        em.emit(instr("sub.s32", dst, t, str(32 - ty.bits)))
