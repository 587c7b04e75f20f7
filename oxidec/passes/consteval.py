"""Exact target arithmetic on MIR constants: what `const_fold` computes at compile time.

The rules are those of `oxidec/mir/syntax.py` (Rust release semantics on the GPU), so the
simulator may use these functions too:

    add/sub/mul on integers wrap to the width        250_u8 + 10_u8     -> 4_u8
    shl/shr mask the amount to the width             1_i32 << 33_i32    -> 2_i32
    shr is arithmetic on signed types                -8_i32 >> 1_i32    -> -4_i32
    div/rem truncate toward zero                     -7_i32 / 2, % 2    -> -3, -1
    f32 arithmetic rounds to f32 after every op      0.1_f32 + 0.2_f32  -> 0.3_f32 (not ...04)
    float -> int casts saturate, NaN -> 0            300.7_f32 as u8    -> 255_u8
    int -> int casts wrap                            -1_i32 as u32      -> 4294967295_u32

Each `eval_*` returns a `Constant`, or None when the result must be left to run time:
division or remainder by zero, `MIN / -1`, operands of unexpected types.
"""
from __future__ import annotations

import math
import struct

from ..mir.syntax import Constant
from ..half_float import round_half
from ..types import BOOL, BoolTy, FloatTy, IntTy, Ty, float_format, int_range, wrap_int


# ---------------------------------------------------------------------------
# Representation


def to_f32(value: float) -> float:
    """The f32 nearest a Python float (ties to even; overflow -> inf)."""
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:  # rounds past the largest f32
        return math.copysign(math.inf, value)


def round_float(value: float, ty: FloatTy) -> float:
    """Round a Python float (an f64) to the precision of `ty`."""
    if ty.bits == 16:
        return to_half(value, ty)
    return to_f32(value) if ty.bits == 32 else float(value)


def to_half(value: float, ty: FloatTy) -> float:
    """The f16 / bf16 nearest a Python float (half_float.round_half)."""
    return round_half(value, ty)


def normalize(c: Constant) -> Constant:
    """The canonical Python value for a constant of its type."""
    ty = c.ty
    if isinstance(ty, IntTy) and isinstance(c.value, (int, bool)):
        return Constant(wrap_int(int(c.value), ty), ty)
    if isinstance(ty, FloatTy) and isinstance(c.value, (int, float)):
        return Constant(round_float(float(c.value), ty), ty)
    if isinstance(ty, BoolTy) and c.value is not None:
        return Constant(bool(c.value), ty)
    return c


def same_constant(a: Constant, b: Constant) -> bool:
    """Equality of constants that also holds for NaN (and tells 0.0 from -0.0)."""
    if a.ty != b.ty or type(a.value) is not type(b.value):
        return False
    if isinstance(a.value, float):
        return math.copysign(1, a.value) == math.copysign(1, b.value) and (
            a.value == b.value or (math.isnan(a.value) and math.isnan(b.value)))
    return a.value == b.value


def _float_op(op: str, a: float, b: float, ty: FloatTy) -> float | None:
    """One IEEE operation, rounded once to `ty`.

    For f32 the operation is done in f64 and rounded to f32: for + - * / that is exactly
    the f32 operation (53 >= 2*24 + 2 bits, so the double rounding is innocuous), and
    fmod is exact in any precision.
    """
    try:
        if op == "add":
            r = a + b
        elif op == "sub":
            r = a - b
        elif op == "mul":
            r = a * b
        elif op == "div":
            r = a / b
        elif op == "rem":
            r = math.fmod(a, b)  # Rust's % on floats: truncated, sign of the dividend
        else:
            return None
    except (ZeroDivisionError, ValueError, OverflowError):
        return _float_op_special(op, a, b)
    return round_float(r, ty)


def _float_op_special(op: str, a: float, b: float) -> float | None:
    """IEEE results where Python raises: x / 0 (never folded anyway), fmod(inf, y) = NaN."""
    if op == "rem" and (math.isinf(a) or b == 0) and not math.isnan(b):
        return math.nan
    return None


# ---------------------------------------------------------------------------
# Operators

_COMPARE = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


def _int_binary(op: str, a: int, b: int, ty: IntTy, rhs_ty: Ty) -> int | None:
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op in ("div", "rem"):
        lo, _ = int_range(ty)
        if b == 0 or (ty.signed and a == lo and b == -1):
            return None  # traps (or is guarded by an assert); leave it to run time
        q = abs(a) // abs(b)
        q = q if (a < 0) == (b < 0) else -q
        return q if op == "div" else a - q * b
    if op == "bitand":
        return a & b
    if op == "bitor":
        return a | b
    if op == "bitxor":
        return a ^ b
    if op in ("shl", "shr"):
        amount = b & (ty.bits - 1)
        if op == "shl":
            return a << amount
        return a >> amount  # a is signed-normalised for signed types: arithmetic shift
    return None


def eval_binary(op: str, lhs: Constant, rhs: Constant) -> Constant | None:
    lhs, rhs = normalize(lhs), normalize(rhs)
    ty = lhs.ty
    if op in ("shl", "shr"):
        if isinstance(ty, IntTy) and isinstance(rhs.ty, IntTy):
            return Constant(wrap_int(_int_binary(op, lhs.value, rhs.value, ty, rhs.ty), ty), ty)
        return None
    if lhs.ty != rhs.ty:
        return None
    if op in _COMPARE:
        if isinstance(ty, (IntTy, FloatTy, BoolTy)):
            return Constant(bool(_COMPARE[op](lhs.value, rhs.value)), BOOL)
        return None
    if isinstance(ty, IntTy):
        r = _int_binary(op, lhs.value, rhs.value, ty, rhs.ty)
        return None if r is None else Constant(wrap_int(r, ty), ty)
    if isinstance(ty, FloatTy):
        if op in ("div", "rem") and rhs.value == 0:
            return None  # never fold a division by zero
        r = _float_op(op, lhs.value, rhs.value, ty)
        return None if r is None else Constant(r, ty)
    if isinstance(ty, BoolTy):
        if op == "bitand":
            return Constant(lhs.value and rhs.value, BOOL)
        if op == "bitor":
            return Constant(lhs.value or rhs.value, BOOL)
        if op == "bitxor":
            return Constant(lhs.value != rhs.value, BOOL)
    return None


def eval_unary(op: str, operand: Constant) -> Constant | None:
    c = normalize(operand)
    ty = c.ty
    if op == "neg":
        if isinstance(ty, IntTy):
            return Constant(wrap_int(-c.value, ty), ty)
        if isinstance(ty, FloatTy):
            return Constant(-c.value, ty)
    if op == "not":
        if isinstance(ty, IntTy):
            return Constant(wrap_int(~c.value, ty), ty)
        if isinstance(ty, BoolTy):
            return Constant(not c.value, ty)
    return None


# ---------------------------------------------------------------------------
# Casts


def int_to_float(value: int, ty: FloatTy) -> float:
    """Round an integer to the nearest `ty` (ties to even), rounding only once."""
    if ty.bits == 64 or abs(value) < 1 << 53:
        return round_float(float(value), ty)  # int -> f64 is exact here (or correctly rounded)
    sign, m = (-1 if value < 0 else 1), abs(value)
    shift = m.bit_length() - float_format(ty)[0]
    q, r = divmod(m, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return round_float(float(sign * (q << shift)), ty)


def float_to_int(value: float, ty: IntTy) -> int:
    """Rust `as`: truncate toward zero, saturate at the bounds, NaN -> 0."""
    if math.isnan(value):
        return 0
    lo, hi = int_range(ty)
    if math.isinf(value):
        return hi if value > 0 else lo
    return max(lo, min(hi, math.trunc(value)))


def eval_cast(operand: Constant, target: Ty) -> Constant | None:
    c = normalize(operand)
    src, v = c.ty, c.value
    if src == target:
        return c
    if isinstance(src, IntTy):
        if isinstance(target, IntTy):
            return Constant(wrap_int(v, target), target)
        if isinstance(target, FloatTy):
            return Constant(int_to_float(v, target), target)
    if isinstance(src, BoolTy) and isinstance(target, IntTy):
        return Constant(int(v), target)
    if isinstance(src, FloatTy):
        if isinstance(target, IntTy):
            return Constant(float_to_int(v, target), target)
        if isinstance(target, FloatTy):
            return Constant(round_float(v, target), target)
    return None


# ---------------------------------------------------------------------------
# Intrinsics


def _count(name: str, v: int, ty: IntTy) -> int:
    bits = v & ((1 << ty.bits) - 1)
    if name == "popc":
        return bin(bits).count("1")
    if name == "clz":
        return ty.bits - bits.bit_length()
    return ty.bits if bits == 0 else (bits & -bits).bit_length() - 1  # ctz


def eval_intrinsic(name: str, args: list[Constant], result_ty: Ty | None) -> Constant | None:
    """Fold a pure intrinsic of constants: min, max, abs, floor, ceil, trunc, popc, clz, ctz.

    `sqrt`, `round`, `fma` and the special registers are left alone (their device rounding
    is the emitter's business); `select` is folded by `const_fold` itself, since it only
    needs a constant condition.
    """
    args = [normalize(a) for a in args]
    if not args:
        return None
    ty = args[0].ty
    if name in ("min", "max") and len(args) == 2 and args[1].ty == ty:
        a, b = args[0].value, args[1].value
        if isinstance(ty, IntTy):
            return Constant(min(a, b) if name == "min" else max(a, b), ty)
        if isinstance(ty, FloatTy):
            if math.isnan(a) or math.isnan(b):
                return Constant(b if math.isnan(a) else a, ty)  # IEEE minNum/maxNum
            if a == b == 0 and math.copysign(1, a) != math.copysign(1, b):
                return None  # min(-0.0, 0.0): the sign is the device's choice
            return Constant(min(a, b) if name == "min" else max(a, b), ty)
        return None
    if len(args) != 1:
        return None
    v = args[0].value
    if name == "abs":
        if isinstance(ty, IntTy):
            return Constant(wrap_int(abs(v), ty), ty)  # abs(MIN) wraps to MIN
        if isinstance(ty, FloatTy):
            return Constant(math.fabs(v), ty)
    if name in ("floor", "ceil", "trunc") and isinstance(ty, FloatTy):
        if math.isnan(v) or math.isinf(v):
            return Constant(v, ty)
        r = {"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc}[name](v)
        return Constant(math.copysign(float(r), v) if r == 0 else float(r), ty)
    if name in ("popc", "clz", "ctz") and isinstance(ty, IntTy) and isinstance(result_ty, IntTy):
        return Constant(wrap_int(_count(name, v, ty), result_ty), result_ty)
    return None
