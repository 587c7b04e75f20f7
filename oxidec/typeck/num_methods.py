"""The signatures of `core`'s integer and float methods beyond the one-instruction ones of
device_api/numbers.py: the checked/wrapping/overflowing/saturating families, bit
manipulation, euclidean division, byte conversions, and the float classification and
rounding methods (lower/num_methods.py expands each into MIR).

    method_call_expr: expr "." IDENT "(" args? ")"      `x.checked_add(y)`, `v.exp_m1()`

A row: name -> (parameters, result, which types). Parameters: "s" the receiver's type,
"u" u32, "b" bool, "U" the unsigned type of the receiver's width. Results: "s", "b" bool,
"u" u32, "U", "os" Option<Self>, "ou" Option<u32>, "ps" (Self, bool), "ss" (Self, Self),
"bytes" [u8; size_of::<Self>()]. Types: "" every integer (or float), "S" signed only,
"N" unsigned only (as in Rust 1.95: e.g. `div_ceil` and `carrying_add` are stable only on
unsigned types, `signum` only on signed ones).
"""
from __future__ import annotations

from .. import types as T


def _family(prefix: str, names: str, params: str, result: str, which: str = "") -> dict:
    return {f"{prefix}{n}": (params, result, which) for n in names.split()}


INT_METHODS: dict[str, tuple[str, str, str]] = {
    **_family("wrapping_", "add sub mul div rem div_euclid rem_euclid", "s", "s"),
    **_family("wrapping_", "neg", "", "s"),
    **_family("wrapping_", "abs", "", "s", "S"),
    **_family("wrapping_", "shl shr pow", "u", "s"),
    **_family("checked_", "add sub mul div rem div_euclid rem_euclid", "s", "os"),
    **_family("checked_", "neg", "", "os"),
    **_family("checked_", "abs", "", "os", "S"),
    **_family("checked_", "shl shr pow", "u", "os"),
    **_family("checked_", "next_power_of_two", "", "os", "N"),
    **_family("checked_", "ilog2 ilog10", "", "ou"),
    **_family("overflowing_", "add sub mul div rem div_euclid rem_euclid", "s", "ps"),
    **_family("overflowing_", "neg", "", "ps"),
    **_family("overflowing_", "abs", "", "ps", "S"),
    **_family("overflowing_", "shl shr pow", "u", "ps"),
    **_family("saturating_", "add sub mul div", "s", "s"),
    **_family("saturating_", "neg abs", "", "s", "S"),
    **_family("saturating_", "pow", "u", "s"),
    "carrying_add": ("sb", "ps", "N"), "borrowing_sub": ("sb", "ps", "N"),
    "carrying_mul": ("ss", "ss", "N"),
    **_family("", "count_zeros leading_ones trailing_ones ilog2 ilog10", "", "u"),
    **_family("", "rotate_left rotate_right", "u", "s"),
    **_family("", "swap_bytes reverse_bits to_be to_le isqrt", "", "s"),
    "pow": ("u", "s", ""),
    "is_power_of_two": ("", "b", "N"), "next_power_of_two": ("", "s", "N"),
    "div_ceil": ("s", "s", "N"), "is_multiple_of": ("s", "b", "N"),
    **_family("", "div_euclid rem_euclid", "s", "s"),
    "abs_diff": ("s", "U", ""),
    "signum": ("", "s", "S"),
    **_family("", "is_positive is_negative", "", "b", "S"),
    "unsigned_abs": ("", "U", "S"),
    **_family("", "to_be_bytes to_le_bytes to_ne_bytes", "", "bytes"),
}

# the methods of u128/i128 (computed in 64-bit halves, passes/wide_ints.py): those that
# expand to additions, subtractions, multiplications, shifts, comparisons and selects
WIDE_METHODS = frozenset(
    [f"wrapping_{op}" for op in ("add", "sub", "mul", "neg", "shl", "shr")]
    + [f"{fam}_{op}" for fam in ("checked", "overflowing")
       for op in ("add", "sub", "neg", "shl", "shr")]
    + ["saturating_add", "saturating_sub"])

FLOAT_METHODS: dict[str, tuple[str, str, str]] = {
    **_family("", "fract round_ties_even signum recip to_degrees to_radians", "", "s"),
    **_family("", "is_finite is_infinite is_sign_positive is_sign_negative is_normal "
              "is_subnormal", "", "b"),
    **_family("", "div_euclid rem_euclid", "s", "s"),
    # device math (oxidec/mathlib/hyperbolic.py: same bound and sweep as the other routines)
    **_family("", "exp_m1 ln_1p sinh cosh asinh acosh atanh asin acos", "", "s"),
    "sin_cos": ("", "ss", ""),
    **_family("", "to_be_bytes to_le_bytes to_ne_bytes", "", "bytes"),
    "log": ("s", "s", ""),
    # the bytes of the float's bits (lower/num_methods.py: through the unsigned integer)
    **_family("", "to_be_bytes to_le_bytes to_ne_bytes", "", "bytes"),
}


CHAR_METHODS: dict[str, tuple[str, str, str]] = {
    **_family("is_ascii_", "digit alphabetic alphanumeric uppercase lowercase whitespace "
              "hexdigit punctuation graphic control", "", "b"),
    "is_ascii": ("", "b", ""),
    "is_whitespace": ("", "b", ""),  # Unicode White_Space: a fixed set (lower/char_methods.py)
    **_family("to_ascii_", "uppercase lowercase", "", "s"),
    "to_digit": ("u", "ou", ""), "is_digit": ("u", "b", ""), "len_utf8": ("", "z", ""),
}


# Unicode classifications that need core's tables: refused, with the ASCII form suggested
UNICODE_CHAR_METHODS = ("is_alphabetic", "is_numeric", "is_alphanumeric", "is_lowercase",
                        "is_uppercase", "is_control", "to_lowercase", "to_uppercase")


def unsigned_of(ty: T.IntTy) -> T.IntTy:
    return T.IntTy(ty.bits, False, ty.pointer_sized)


def applies(which: str, ty: T.Ty) -> bool:
    if which == "S":
        return isinstance(ty, T.IntTy) and ty.signed
    if which == "N":
        return isinstance(ty, T.IntTy) and not ty.signed
    return True


def signature(table: dict, name: str, ty: T.Ty) -> tuple[tuple[T.Ty, ...], T.Ty]:
    """The parameter types and the result type of method `name` on the number type `ty`."""
    params, result, _ = table[name]
    unsigned = unsigned_of(ty) if isinstance(ty, T.IntTy) else ty
    kinds = {"s": ty, "u": T.U32, "b": T.BOOL, "U": unsigned}
    out = {"s": ty, "b": T.BOOL, "u": T.U32, "U": unsigned, "os": T.option_ty(ty),
           "ou": T.option_ty(T.U32), "z": T.USIZE, "ps": T.TupleTy((ty, T.BOOL)), "ss": T.TupleTy((ty, ty))}
    if result == "bytes":
        ret = T.ArrayTy(T.U8, ty.bits // 8)
    else:
        ret = out[result]
    return tuple(kinds[p] for p in params), ret
