"""Value ranges of integer locals for index32.py: intervals of the integers a register's
bits stand for, wrap-around included.

A range `(lo, hi)` of a local of `bits` bits says: its bit pattern is congruent, modulo
2^bits, to some integer v with lo <= v <= hi. Ring operations (add, sub, mul) keep that
true under exact interval arithmetic whatever wraps, so `c - 1` with c in [0, 10] is
[-1, 9]: the bits of 0 - 1 are those of -1. A consumer that needs the value itself (a
comparison, a widening cast, a division) asks `unsigned_value`/`signed_value`, which
answer only when the interval lies within the type's unsigned or signed window, where the
congruence names one value.
"""
from __future__ import annotations

from ..types import IntTy

Range = tuple[int, int]

# hardware limits (sm_80/sm_90): block dims (1024, 1024, 64), grid dims (2^31 - 1, 65535,
# 65535), as check_elim.py
GRID_MAX = {"x": (1 << 31) - 1, "y": 65535, "z": 65535}
BLOCK_MAX = {"x": 1024, "y": 1024, "z": 64}


def special_register(name: str, block: tuple[int, int, int] | None) -> Range | None:
    """The range of a special register intrinsic (`tid.x`, `ctaid.y`, `laneid`...), with the
    exact block shape of a launch contract where there is one (`.reqntid` enforces it)."""
    reg, _, axis = name.partition(".")
    if reg == "laneid":
        return (0, 31)
    if axis not in ("x", "y", "z"):
        return None
    exact = int(block["xyz".index(axis)]) if block else None
    if reg == "tid":
        return (0, (exact or BLOCK_MAX[axis]) - 1)
    if reg == "ntid":
        return (exact, exact) if exact else (1, BLOCK_MAX[axis])
    if reg == "ctaid":
        return (0, GRID_MAX[axis] - 1)
    if reg == "nctaid":
        return (1, GRID_MAX[axis])
    return None


def unsigned_value(r: Range | None, bits: int) -> Range | None:
    """The range of the unsigned value itself, when the interval names one."""
    if r is not None and 0 <= r[0] and r[1] < (1 << bits):
        return r
    return None


def signed_value(r: Range | None, bits: int) -> Range | None:
    half = 1 << (bits - 1)
    if r is not None and -half <= r[0] and r[1] < half:
        return r
    return None


def value_of(r: Range | None, ty: IntTy) -> Range | None:
    return signed_value(r, ty.bits) if ty.signed else unsigned_value(r, ty.bits)


def binary(op: str, a: Range | None, b: Range | None, ty: IntTy) -> Range | None:
    """The range of `a op b` in `ty` (None: unknown)."""
    if a is None or b is None:
        return None
    if op == "add":
        return (a[0] + b[0], a[1] + b[1])
    if op == "sub":
        return (a[0] - b[1], a[1] - b[0])
    if op == "mul":
        ps = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
        return (min(ps), max(ps))
    va, vb = value_of(a, ty), value_of(b, ty)
    if va is None or vb is None:
        return None
    if op == "bitand" and va[0] >= 0 and vb[0] >= 0:
        return (0, min(va[1], vb[1]))
    if op == "shl" and vb[0] == vb[1] and 0 <= vb[0] < ty.bits:
        return (va[0] << vb[0], va[1] << vb[0])
    if op == "shr" and vb[0] == vb[1] and 0 <= vb[0] < ty.bits:
        return (va[0] >> vb[0], va[1] >> vb[0])
    if op == "div" and va[0] >= 0 and vb[0] > 0:
        return (va[0] // vb[1], va[1] // vb[0])
    if op == "rem" and va[0] >= 0 and vb[0] > 0:
        return (0, min(va[1], vb[1] - 1))
    return None


def cast(r: Range | None, src: IntTy, dst: IntTy) -> Range | None:
    """`x as dst` for x of `src`: the source's value, when it fits the destination."""
    v = value_of(r, src)
    return v if value_of(v, dst) is not None else None


def meet(old: Range | None, new: Range, bits: int) -> Range:
    """Both facts about one register of `bits` bits: their intersection when the two
    intervals lie within one window of 2^bits (two integers congruent modulo 2^bits that
    close are equal, so both speak of the same integer), else the newer."""
    if old is None:
        return new
    lo, hi = max(old[0], new[0]), min(old[1], new[1])
    if max(old[1], new[1]) - min(old[0], new[0]) < (1 << bits) and lo <= hi:
        return (lo, hi)
    return new


def below(r: Range | None, bits: int, strict: bool) -> Range | None:
    """The range of x given `x < y` (strict) or `x <= y` (unsigned), y in r: x's unsigned
    value lies in [0, max y - 1] (or max y)."""
    v = unsigned_value(r, bits)
    if v is None:
        return None
    hi = v[1] - 1 if strict else v[1]
    return (0, hi) if hi >= 0 else None


def decide(op: str, a: Range | None, b: Range | None) -> bool | None:
    """The comparison `a op b` of two values (ranges of the values themselves) when the
    ranges settle it, else None."""
    if a is None or b is None:
        return None
    if op in ("gt", "ge"):
        op, a, b = {"gt": "lt", "ge": "le"}[op], b, a
    if op == "lt":
        return True if a[1] < b[0] else False if a[0] >= b[1] else None
    if op == "le":
        return True if a[1] <= b[0] else False if a[0] > b[1] else None
    if a[0] == a[1] == b[0] == b[1]:
        return op == "eq"
    if a[1] < b[0] or b[1] < a[0]:
        return op == "ne"
    return None


def product_below(a: Range | None, b: Range | None, bound: float) -> bool:
    """`|(x as f64) * (y as f64)| < bound` for every x in a, y in b (integers below 2^53,
    exact as f64; the product rounded to nearest is at most its value times 1 + 2^-52)."""
    if a is None or b is None or not all(abs(v) < 1 << 53 for v in a + b):
        return False
    from fractions import Fraction
    top = max(abs(a[0]), abs(a[1])) * max(abs(b[0]), abs(b[1]))
    return Fraction(top) * (1 + Fraction(1, 1 << 52)) < Fraction(bound)
