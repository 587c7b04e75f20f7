"""`f16` and `bf16` scalars in PTX: `.b16` registers (`%rs`), and the instructions that
keep Rust's semantics on sm_80 and sm_90 alike.

    add/sub/mul   f16: `add.rn.f16` ...; bf16: `fma.rn.bf16` (a*1+b, b*-1+a, a*b+-0: one
                  rounding, the signs of zeros as the plain operation; `add.rn.bf16` is sm_90)
    fma           `fma.rn.f16` / `fma.rn.bf16`
    div, rem      through f32: exact widening, `div.rn.f32` (or the exact fmod), one
                  rounding back: the correctly rounded half result
    comparisons   through f32 (exact), so NaN and signed zeros compare as Rust says
    neg, abs      sign-bit operations (`xor.b16`, `and.b16`), NaN payloads kept
    casts         `cvt` where one instruction rounds once; f64 -> bf16 and integer -> bf16
                  (no single sm_80 instruction) round to odd in f32 first (`cvt.rz` plus a
                  sticky bit), which makes the final `cvt.rn.bf16.f32` the correctly
                  rounded result
"""
from __future__ import annotations

from ..half_float import half_bits  # noqa: F401 (ptx/types.py)
from ..types import BOOL, F32, FloatTy, IntTy, Ty
from .instrs import FLOAT_COMPARE, instr
from .places import Val
from .types import PtxEmitError, arith

ONE = {"f16": "0x3C00", "bf16": "0x3F80"}
MINUS_ONE = {"f16": "0xBC00", "bf16": "0xBF80"}
MINUS_ZERO = "0x8000"


def _reg(em, v: Val) -> Val:
    return em.as_reg(v) if v.imm else v


def _const(em, ty: Ty, bits: str) -> str:
    r = em.tmp(ty)
    em.emit(instr("mov.b16", r, bits))
    return r


def to_f32(em, v: Val) -> Val:
    """The half's exact value in an f32 register."""
    v = _reg(em, v)
    r = em.tmp(F32)
    em.emit(instr(f"cvt.f32.{arith(v.ty)}", r, v.text))
    return Val(r, F32)


def binary(em, op: str, a: Val, b: Val, dst: str) -> None:
    a, b = _reg(em, a), _reg(em, b)
    ty = a.ty
    f = arith(ty)
    if op in ("add", "sub", "mul") and not ty.brain:
        em.emit(instr(f"{op}.rn.f16", dst, a.text, b.text))
    elif op == "add":
        em.emit(instr("fma.rn.bf16", dst, a.text, _const(em, ty, ONE[f]), b.text))
    elif op == "sub":
        em.emit(instr("fma.rn.bf16", dst, b.text, _const(em, ty, MINUS_ONE[f]), a.text))
    elif op == "mul":
        em.emit(instr("fma.rn.bf16", dst, a.text, b.text, _const(em, ty, MINUS_ZERO)))
    elif op in ("div", "rem"):
        from .legalize import float_rem
        x, y = to_f32(em, a), to_f32(em, b)
        r = em.tmp(F32)
        if op == "div":
            em.emit(instr("div.rn.f32", r, x.text, y.text))
        else:
            float_rem(em, x, y, r)
        em.emit(instr(f"cvt.rn.{f}.f32", dst, r))
    else:
        raise PtxEmitError(f"no `{op}` on `{ty}`")


def compare(em, op: str, a: Val, b: Val, dst: str) -> None:
    x, y = to_f32(em, a), to_f32(em, b)
    em.emit(instr(f"setp.{FLOAT_COMPARE[op]}.f32", dst, x.text, y.text))


def cast(em, v: Val, to: Ty, dst: str) -> None:
    """dst = v as `to` where v or `to` is a half."""
    from .legalize import float_to_int
    src = v.ty
    if isinstance(src, FloatTy) and src.bits == 16:
        if isinstance(to, FloatTy) and to.bits == 32:
            em.emit(instr(f"cvt.f32.{arith(src)}", dst, _reg(em, v).text))
        elif isinstance(to, FloatTy) and to.bits == 64 and not src.brain:
            em.emit(instr("cvt.f64.f16", dst, _reg(em, v).text))
        elif isinstance(to, FloatTy):  # bf16 -> f64, f16 <-> bf16: through f32, exact
            cast(em, to_f32(em, v), to, dst)
        elif isinstance(to, IntTy):
            float_to_int(em, to_f32(em, v), to, dst)
        else:
            raise PtxEmitError(f"cannot cast `{src}` to `{to}`")
        return
    f = arith(to)
    if isinstance(src, FloatTy) and src.bits == 32:
        em.emit(instr(f"cvt.rn.{f}.f32", dst, v.text))
    elif isinstance(src, FloatTy) and src.bits == 64 and not to.brain:
        em.emit(instr("cvt.rn.f16.f64", dst, v.text))
    elif isinstance(src, IntTy) and not to.brain:
        em.emit(instr(f"cvt.rn.f16.{arith(src)}", dst, v.text))
    elif isinstance(src, (FloatTy, IntTy)):
        em.emit(instr(f"cvt.rn.{f}.f32", dst, _round_to_odd_f32(em, v)))
    else:
        raise PtxEmitError(f"cannot cast `{src}` to `{to}`")


def _round_to_odd_f32(em, v: Val) -> str:
    """v (f64 or an integer) rounded to f32 toward zero, with the lowest bit set when that
    was inexact: round-to-odd, from which one more rounding to 8 bits is exact."""
    src = v.ty
    s = arith(src)
    t = em.tmp(F32)
    em.emit(instr(f"cvt.rz.f32.{s}", t, v.text))
    back = em.tmp(src)
    em.emit(instr(f"cvt.f64.f32" if isinstance(src, FloatTy) else f"cvt.rzi.{s}.f32",
                  back, t))
    inexact = em.tmp(BOOL)
    cmp = "neu" if isinstance(src, FloatTy) else "ne"
    em.emit(instr(f"setp.{cmp}.{s}", inexact, back, v.text))
    bits, odd = em.tmp_u32(), em.tmp_u32()
    em.emit(instr("mov.b32", bits, t))
    em.emit(instr("or.b32", odd, bits, "1"))
    em.emit(instr("selp.b32", bits, odd, bits, inexact))
    out = em.tmp(F32)
    em.emit(instr("mov.b32", out, bits))
    return out
