"""Packed half-float pairs (device_api/packed.py) on the simulator: each 16-bit half is
decoded to float64, the operation is computed there (exactly: a sum, product or fma of two
or three halves fits, or lies too far from a rounding tie to matter), and the result is
rounded once to the half format, to nearest even (`.rn`) or toward zero (`.rz`). NaN
results are the canonical NaN 0x7FFF, as the hardware gives."""
from __future__ import annotations

import numpy as np

from ..device_api.packed import ARITH, PACK, SCALAR, UNPACK, XORSIGN
from .intrinsics import INTRINSICS

# format -> (significand bits with the implicit one, minimum normal exponent, largest finite)
FORMATS = {"f16": (11, -14, 65504.0), "bf16": (8, -126, float.fromhex("0x1.fep127")),
           # the fp8 formats (sim/fp8.py): significand bits, lowest exponent, largest value
           "e4m3": (4, -6, 448.0), "e5m2": (3, -14, 57344.0)}
NAN = np.uint16(0x7FFF)


def decode(bits: np.ndarray, fmt: str) -> np.ndarray:
    bits = bits.astype(np.uint16)
    if fmt == "f16":
        return bits.view(np.float16).astype(np.float64)
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)


def round_to(x: np.ndarray, fmt: str, mode: str = "rn") -> np.ndarray:
    """float64 -> the nearest value of the format (RNE, or toward zero), as float64."""
    p, emin, top = FORMATS[fmt]
    with np.errstate(all="ignore"):
        _, e = np.frexp(x)  # x = m * 2^e, 0.5 <= |m| < 1
        exp = np.maximum(e - 1, emin)  # floor(log2 |x|), subnormals share emin's quantum
        ulp = np.ldexp(1.0, exp - (p - 1))
        q = x / ulp
        r = (np.round(q) if mode == "rn" else np.trunc(q)) * ulp
        if mode == "rz":
            r = np.clip(r, -top, top)
        else:
            r = np.where(np.abs(r) > top, np.copysign(np.inf, x), r)
    return np.where(np.isfinite(x), r, x)


def encode(x: np.ndarray, fmt: str) -> np.ndarray:
    """Exact format values (float64) -> bits; NaN -> the canonical NaN."""
    if fmt == "f16":
        bits = x.astype(np.float16).view(np.uint16)
    else:
        bits = (x.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    return np.where(np.isnan(x), NAN, bits)


def halves(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u = v.astype(np.uint32)
    return u & np.uint32(0xFFFF), u >> np.uint32(16)


def join(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint32) | (hi.astype(np.uint32) << np.uint32(16))


def _flush(x: np.ndarray, fmt: str) -> np.ndarray:
    """.ftz: subnormal inputs and results are zero (keeping the sign)."""
    tiny = np.ldexp(1.0, FORMATS[fmt][1])
    return np.where(np.abs(x) < tiny, np.copysign(0.0, x), x)


def _minmax(kind: str, nan: bool, a: np.ndarray, b: np.ndarray, xorsign: bool = False
            ) -> np.ndarray:
    """PTX min/max: -0.0 < +0.0; without .NaN a NaN operand yields the other one.
    `.xorsign.abs`: of |a| and |b|, a non-NaN result with the XOR of a's and b's signs."""
    if xorsign:
        negative = np.signbit(a) ^ np.signbit(b)
        r = _minmax(kind, nan, np.abs(a), np.abs(b))
        return np.where(np.isnan(r), r, np.where(negative, -np.abs(r), np.abs(r)))
    pick_a = (a < b) if kind == "min" else (a > b)
    same = a == b  # +0.0 vs -0.0: by the sign bit
    sign_a, sign_b = np.signbit(a), np.signbit(b)
    pick_a |= same & ((sign_a & ~sign_b) if kind == "min" else (~sign_a & sign_b))
    pick_a |= same & (sign_a == sign_b)
    r = np.where(pick_a, a, b)
    if nan:
        return np.where(np.isnan(a) | np.isnan(b), np.nan, r)
    return np.where(np.isnan(a), b, np.where(np.isnan(b), a, r))


def compute(name: str, args: list[np.ndarray], fmt: str) -> np.ndarray:
    """`add.rn.f16x2` and friends on float64 lanes; the result is rounded here."""
    op, *mods = name.split(".")
    mods = set(mods) - {"rn", fmt + "x2"}
    ftz = "ftz" in mods
    if ftz:
        args = [_flush(a, fmt) for a in args]
    with np.errstate(all="ignore"):
        if op in ("neg", "abs"):
            return -args[0] if op == "neg" else np.abs(args[0])
        if op in ("min", "max"):
            return _minmax(op, "NaN" in mods, *args, xorsign="xorsign" in mods)
        a, b = args[0], args[1]
        exact = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
                 "fma": lambda: a * b + args[2]}[op]()
    r = round_to(exact, fmt)
    if "relu" in mods:
        r = np.where(np.isnan(r), np.nan, np.maximum(r, 0.0))
    if "sat" in mods:
        r = np.where(np.isnan(r), 0.0, np.clip(r, 0.0, 1.0))
    return _flush(r, fmt) if ftz else r


def _arith(name: str):
    fmt = "bf16" if name.endswith("bf16x2") else "f16"

    def fn(x, args, arg_tys, result_ty):
        parts = [halves(a) for a in args]
        out = []
        for h in (0, 1):
            vals = [decode(p[h], fmt) for p in parts]
            r = compute(name, vals, fmt)
            if name.startswith(("neg", "abs")):  # bit operations: NaN payloads kept
                bits = parts[0][h].astype(np.uint16)
                out.append(bits ^ np.uint16(0x8000) if name.startswith("neg")
                           else bits & np.uint16(0x7FFF))
            else:
                out.append(encode(r, fmt))
        return join(*out)
    return fn


def _pack(name: str):
    _, mode, *rest = name.split(".")
    fmt = "bf16" if "bf16x2" in rest else "f16"
    relu = "relu" in rest

    def fn(x, args, arg_tys, result_ty):
        out = []
        for v in args:  # lo, hi
            r = round_to(v.astype(np.float64), fmt, mode)
            if relu:
                r = np.where(np.isnan(r), np.nan, np.maximum(r, 0.0))
            out.append(encode(r, fmt))
        return join(*out)
    return fn


def _unpack(name: str):
    fmt = UNPACK[name]
    half = 0 if name.endswith("lo") else 1

    def fn(x, args, arg_tys, result_ty):
        return decode(halves(args[0])[half], fmt).astype(np.float32)
    return fn


for _name, _, _ in ARITH.values():
    INTRINSICS[_name] = _arith(_name)
for _name in PACK.values():
    INTRINSICS[_name] = _pack(_name)
for _name in UNPACK:
    INTRINSICS[_name] = _unpack(_name)


def _atomic_add(kind: str):
    """`atomic::atom_add_f16x2(p, v)` / `atom_add_bf16x2`: the lanes add in lane order (one
    of the orders the GPU may pick), each half rounded once; each lane gets the old pair."""
    add = _arith(f"add.rn.{kind}x2")
    u32 = np.dtype(np.uint32)

    def fn(x, args, arg_tys, result_ty):
        addr, value = (np.asarray(a) for a in args)
        value = np.broadcast_to(value, addr.shape)
        old = np.empty(addr.shape[0], np.uint32)
        for k in range(addr.shape[0]):
            at, lane = addr[k:k + 1], x.lanes[k:k + 1]
            cur = x.mem.load_scalar(u32, at, lane)
            x.mem.store_scalar(u32, at, add(x, [cur, value[k:k + 1]], None, None), lane)
            old[k] = cur[0]
        return old
    return fn


for _kind in ("f16", "bf16"):
    INTRINSICS[f"atom.add.noftz.{_kind}x2"] = _atomic_add(_kind)


def _scalar(name: str):
    """`f16::min_nan_f16(a, b)` and friends on u16 bits: PTX min/max (-0 < +0; NaN: the other
    operand, or with `.NaN` the canonical NaN; `.ftz`: subnormals are zeros)."""
    op, *mods = name.split(".")
    fmt = mods[-1]

    def fn(x, args, arg_tys, result_ty):
        a, b = (decode(np.asarray(v).astype(np.uint16), fmt) for v in args)
        if "ftz" in mods:
            a, b = _flush(a, fmt), _flush(b, fmt)
        r = _minmax(op, "NaN" in mods, a, b, xorsign="xorsign" in mods)
        if "ftz" in mods:
            r = _flush(r, fmt)
        return encode(r, fmt)
    return fn


for _name in SCALAR.values():
    INTRINSICS[_name] = _scalar(_name)
for _name in XORSIGN.values():
    INTRINSICS[_name] = _arith(_name) if _name.endswith("x2") else _scalar(_name)
