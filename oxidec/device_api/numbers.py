"""Methods of the number types (`x.sqrt()`, `n.count_ones()`) and `f32::from_bits`: Rust's
core methods as the device runs them. A row: name -> (arity, result rule, MIR `Intrinsic`
or None for methods lowering expands: `clamp`, `is_nan`; `wrapping_*` are `BinaryOp`s).
Result rules: "self" (the receiver's type), "bool", "u32", "bits" (u32 for f32, u64 for f64).
"""
from __future__ import annotations

from .model import ApiFn, hook, op
from .ops import F32_NATIVE

FLOAT_METHODS = {
    "sqrt": (0, "self", "sqrt"), "abs": (0, "self", "abs"), "floor": (0, "self", "floor"),
    "ceil": (0, "self", "ceil"), "round": (0, "self", "round"), "trunc": (0, "self", "trunc"),
    "min": (1, "self", "min"), "max": (1, "self", "max"), "mul_add": (2, "self", "fma"),
    "clamp": (2, "self", None), "is_nan": (0, "bool", None),
    # device math (oxidec/mathlib: within 2 ulp on f32 and f64, the same bits on the simulator)
    "exp": (0, "self", "exp"), "exp2": (0, "self", "exp2"), "ln": (0, "self", "ln"),
    "log2": (0, "self", "log2"), "log10": (0, "self", "log10"), "sin": (0, "self", "sin"),
    "cos": (0, "self", "cos"), "tan": (0, "self", "tan"), "atan": (0, "self", "atan"),
    "atan2": (1, "self", "atan2"), "tanh": (0, "self", "tanh"), "powf": (1, "self", "powf"),
    "powi": (1, "self", "powi"), "cbrt": (0, "self", "cbrt"), "hypot": (1, "self", "hypot"),
    # f32 exp, exp2, ln, log2, log10, sin, cos, tan, tanh, exp_m1 are computed in f32 (at most
    # 1 ulp); `<name>_exact` are the f64-based, correctly rounded ones
    **{f"{n}_exact": (0, "self", f"{n}.exact") for n in F32_NATIVE},
    "copysign": (1, "self", "copysign"), "to_bits": (0, "bits", "bitcast"),
    # the hardware approximations (MUFU, f32); on f64 these are the accurate routines
    "exp_fast": (0, "self", "exp.approx"), "exp2_fast": (0, "self", "exp2.approx"),
    "ln_fast": (0, "self", "ln.approx"), "log2_fast": (0, "self", "log2.approx"),
    "sin_fast": (0, "self", "sin.approx"), "cos_fast": (0, "self", "cos.approx"),
    "tanh_fast": (0, "self", "tanh.approx"),
}
# Float methods whose parameters are not all of the receiver's type.
FLOAT_METHOD_PARAMS = {"powi": ("i32",)}
INT_METHODS = {
    "min": (1, "self", "min"), "max": (1, "self", "max"), "abs": (0, "self", "abs"),
    "count_ones": (0, "u32", "popc"), "leading_zeros": (0, "u32", "clz"),
    "trailing_zeros": (0, "u32", "ctz"), "clamp": (2, "self", None),
    "wrapping_add": (1, "self", "add"), "wrapping_sub": (1, "self", "sub"),
    "wrapping_mul": (1, "self", "mul"),
}

FNS = [
    ApiFn("f32::from_bits", ("u32",), "f32", op("bitcast")),
    ApiFn("f64::from_bits", ("u64",), "f64", op("bitcast")),
]

# The `half` crate's constructors of `f16` / `bf16` (cuda-oxide kernels use `half::f16`):
# `from_f32`/`from_f64` round once to nearest even (`x as f16`), `from_bits` reinterprets.
for _t in ("f16", "bf16"):
    FNS += [
        ApiFn(f"{_t}::from_f32", ("f32",), _t, hook("half_from")),
        ApiFn(f"{_t}::from_f64", ("f64",), _t, hook("half_from")),
        ApiFn(f"{_t}::from_bits", ("u16",), _t, hook("half_from")),
    ]

FNS += [
    ApiFn("char::from_u32", ("u32",), "Option<char>", hook("char_from_u32")),
    ApiFn("char::from_digit", ("u32", "u32"), "Option<char>", hook("char_from_digit")),
]

# `u32::from_be(x)`, `i64::from_le_bytes(b)`, ...: the byte-order conversions of every
# integer type (the device is little-endian; lower/num_methods.py has the hooks).
INT_NAMES = ("u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "usize", "isize")
_BYTES = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4}
for _t in INT_NAMES:
    _n = _BYTES.get(_t, 8)
    FNS += [
        ApiFn(f"{_t}::from_be", (_t,), _t, hook("int_from_be")),
        ApiFn(f"{_t}::from_le", (_t,), _t, hook("int_from_le")),
        ApiFn(f"{_t}::from_be_bytes", (f"[u8; {_n}]",), _t, hook("int_from_be_bytes")),
        ApiFn(f"{_t}::from_le_bytes", (f"[u8; {_n}]",), _t, hook("int_from_le_bytes")),
        ApiFn(f"{_t}::from_ne_bytes", (f"[u8; {_n}]",), _t, hook("int_from_le_bytes")),
    ]
for _t, _n in (("f32", 4), ("f64", 8)):  # the bytes of the bits (lower/num_methods.py)
    FNS += [
        ApiFn(f"{_t}::from_be_bytes", (f"[u8; {_n}]",), _t, hook("float_from_be_bytes")),
        ApiFn(f"{_t}::from_le_bytes", (f"[u8; {_n}]",), _t, hook("float_from_le_bytes")),
        ApiFn(f"{_t}::from_ne_bytes", (f"[u8; {_n}]",), _t, hook("float_from_le_bytes")),
    ]
