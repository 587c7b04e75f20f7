"""The integer and float method families of `core` as one Rust program: for each number type
T a `fn m_T(a, b, j) -> u64` whose arm `j` applies one method to `a as T`, `b as T` (or to
the floats with those bits) and returns the result's bits as u64, plus one kernel per type
that runs arm `t % M` on input `t / M`. The same text is compiled by rustc (with a host
`main`) and by oxidec; test_num_oracle.py compares the simulator with rustc, and
tests/run/test_num_methods_gpu.py the GPU with the simulator.

Arms that would panic (division by zero, `MIN / -1` in the euclid forms, logs of values
<= 0, isqrt of negatives) are guarded in the source itself, so both sides skip them alike.
"""
from __future__ import annotations

import numpy as np

INT_TYPES = ("u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "usize", "isize")
FLOAT_TYPES = ("f32", "f64")

NONE = "0x5A5A_5A5A_5A5A_5A5A_u64"
DIV_OK = "y != 0 && !(x == T::MIN && y == (0 as T).wrapping_sub(1))"


def _opt(call: str) -> str:
    return f"match {call} {{ Some(v) => v as u64, None => {NONE} }}"


def _pair(call: str) -> str:
    return f"{{ let (v, o) = {call}; if o {{ !(v as u64) }} else {{ v as u64 }} }}"


def _guard(cond: str, expr: str) -> str:
    return f"if {cond} {{ {expr} }} else {{ 1 }}"


# (Rust expression of the arm, which types: "" all, "S" signed, "N" unsigned)
INT_ARMS: list[tuple[str, str]] = []
PLAIN = {"div": "(x / y)", "rem": "(x % y)"}
for op in ("add", "sub", "mul"):
    INT_ARMS += [(f"x.wrapping_{op}(y) as u64", ""), (_opt(f"x.checked_{op}(y)"), ""),
                 (_pair(f"x.overflowing_{op}(y)"), ""), (f"x.saturating_{op}(y) as u64", "")]
for op in ("div", "rem", "div_euclid", "rem_euclid"):
    INT_ARMS += [(_guard("y != 0", f"x.wrapping_{op}(y) as u64"), ""),
                 (_opt(f"x.checked_{op}(y)"), ""),
                 (_guard("y != 0", _pair(f"x.overflowing_{op}(y)")), ""),
                 (_guard(DIV_OK, PLAIN.get(op, f"x.{op}(y)") + " as u64"), "")]
INT_ARMS += [(_guard("y != 0", "x.saturating_div(y) as u64"), ""),
             (_guard("y != 0", "x.div_ceil(y) as u64"), "N")]
for op in ("shl", "shr", "pow"):
    INT_ARMS += [(f"x.wrapping_{op}(n) as u64", ""), (_opt(f"x.checked_{op}(n)"), ""),
                 (_pair(f"x.overflowing_{op}(n)"), "")]
INT_ARMS += [("x.saturating_pow(n) as u64", ""), ("x.pow(n) as u64", ""),
             ("x.pow(n & 7) as u64", "")]
for op in ("neg", "abs"):
    which = "" if op == "neg" else "S"
    INT_ARMS += [(f"x.wrapping_{op}() as u64", which), (_opt(f"x.checked_{op}()"), which),
                 (_pair(f"x.overflowing_{op}()"), which)]
INT_ARMS += [("x.saturating_neg() as u64", "S"), ("x.saturating_abs() as u64", "S"),
             (_pair("x.carrying_add(y, n & 1 == 1)"), "N"),
             (_pair("x.borrowing_sub(y, n & 1 == 1)"), "N"),
             ("{ let (l, h) = x.carrying_mul(y, x ^ y); (l as u64) ^ (h as u64).rotate_left(17) }",
              "N")]
for m in ("count_ones", "count_zeros", "leading_zeros", "trailing_zeros", "leading_ones",
          "trailing_ones", "swap_bytes", "reverse_bits", "to_be", "to_le", "is_power_of_two",
          "next_power_of_two", "signum", "is_positive", "is_negative", "unsigned_abs"):
    which = {"is_power_of_two": "N", "next_power_of_two": "N", "signum": "S",
             "is_positive": "S", "is_negative": "S", "unsigned_abs": "S"}.get(m, "")
    INT_ARMS.append((f"x.{m}() as u64", which))
INT_ARMS += [("x.rotate_left(n) as u64", ""), ("x.rotate_right(n) as u64", ""),
             (_guard("x > 0 as T", "x.ilog2() as u64"), ""),
             (_guard("x > 0 as T", "x.ilog10() as u64"), ""),
             (_opt("x.checked_ilog2()"), ""), (_opt("x.checked_ilog10()"), ""),
             (_opt("x.checked_next_power_of_two()"), "N"),
             (_guard("x >= 0 as T", "x.isqrt() as u64"), ""),
             ("x.abs_diff(y) as u64", ""), ("x.min(y) as u64", ""), ("x.max(y) as u64", ""),
             ("x.clamp(y.min(x ^ y), y.max(x ^ y)) as u64", ""),
             ("{ let b = x.to_le_bytes(); (b[0] as u64) ^ ((b[b.len() - 1] as u64) << 8) }", ""),
             ("{ let b = x.to_be_bytes(); (b[0] as u64) ^ ((b[b.len() - 1] as u64) << 8) }", ""),
             ("(T::MAX as u64) ^ (T::MIN as u64) ^ (T::BITS as u64)", ""),
             ("T::from_be_bytes(x.to_le_bytes()) as u64", ""),
             ("T::from_ne_bytes(y.to_be_bytes()) as u64", ""),
             ("(T::from_be(x) ^ T::from_le(y)) as u64", "")]

FLOAT_ARMS = [
    "x.fract()", "x.round_ties_even()", "x.signum()", "x.recip()", "x.to_degrees()",
    "x.to_radians()", "x.trunc()", "x.floor()", "x.ceil()", "x.round()", "x.abs()", "x.sqrt()",
    "x.copysign(y)", "x.div_euclid(y)", "x.rem_euclid(y)", "x % y", "x.mul_add(y, 0.75)",
    "x.min(y) + 0.0", "x.max(y) + 0.0", "x.clamp(-1.5, 2.5)",
    "T::from_bits(x.to_bits() ^ 1)",
    "if x.is_nan() { 1.0 } else { 0.0 }", "if x.is_finite() { 1.0 } else { 0.0 }",
    "if x.is_infinite() { 1.0 } else { 0.0 }", "if x.is_sign_negative() { 1.0 } else { 0.0 }",
    "if x.is_sign_positive() { 1.0 } else { 0.0 }", "if x.is_normal() { 1.0 } else { 0.0 }",
    "if x.is_subnormal() { 1.0 } else { 0.0 }",
    "T::EPSILON * x + T::MIN_POSITIVE", "x * core::f64::consts::PI as T",
]


_CLASSES = ("digit", "alphabetic", "alphanumeric", "uppercase", "lowercase", "whitespace",
            "hexdigit", "punctuation", "graphic", "control")
CHAR_ARMS = [f"{v}.is_ascii_{c}() as u64" for c in _CLASSES for v in ("x", "y")] + [
    "y.is_ascii() as u64", "x.is_ascii() as u64",
    "y.to_ascii_uppercase() as u64", "y.to_ascii_lowercase() as u64",
    "x.to_ascii_uppercase() as u64",
    _opt("y.to_digit(2 + n % 35)"), _opt("y.to_digit(16)"), _opt("x.to_digit(10)"),
    "y.is_digit(2 + n % 35) as u64", "x.len_utf8() as u64", "y.len_utf8() as u64",
    _opt("char::from_u32(a as u32)"), _opt("char::from_u32((a as u32) % 0x11_0000)"),
    _opt("char::from_digit((a as u32) % 40, 2 + n % 35)"),
    "((x < y) as u64) | (((x == y) as u64) << 1) | (((x >= y) as u64) << 2)",
    "match y { 'a'..='f' => 1, 'A' | 'Z' => 2, '0'..='9' => 3, '\\n' => 4, _ => 0 }",
    "(char::MAX as u64) ^ ('\\u{e9}' as u64) ^ ('z' as u8 as u64)",
    "x as u8 as u64", "(y as u32 as u64) ^ ((x as u16 as u64) << 8)",
]


def _applies(which: str, ty: str) -> bool:
    signed = ty.startswith("i")
    return which == "" or (which == "S") == signed


def int_arms(ty: str) -> list[str]:
    return [e.replace("T::", f"{ty}::").replace("as T", f"as {ty}")
            for e, which in INT_ARMS if _applies(which, ty)]


def float_arms(ty: str) -> list[str]:
    return [e.replace("T::", f"{ty}::").replace("as T", f"as {ty}") for e in FLOAT_ARMS]


def arms_of(ty: str) -> list[str]:
    if ty == "char":
        return CHAR_ARMS
    return float_arms(ty) if ty in FLOAT_TYPES else int_arms(ty)


def arm_count(ty: str) -> int:
    return len(arms_of(ty))


def _fn(ty: str) -> str:
    if ty == "char":
        head = ("let x = match char::from_u32((a as u32) % 0x11_0000) { Some(c) => c, "
                "None => '?' }; let y = (b as u8) as char; let n = (b >> 32) as u32;")
        arms = [f"{j} => {e}," for j, e in enumerate(CHAR_ARMS)]
    elif ty in FLOAT_TYPES:
        bits = "u32" if ty == "f32" else "u64"
        head = (f"let x = {ty}::from_bits(a as {bits}); let y = {ty}::from_bits(b as {bits});")
        arms = [f"{j} => {{ let r: {ty} = {e}; r.to_bits() as u64 }},"
                for j, e in enumerate(float_arms(ty))]
    else:
        head = f"let x = a as {ty}; let y = b as {ty}; let n = (b >> 32) as u32;"
        arms = [f"{j} => {e}," for j, e in enumerate(int_arms(ty))]
    body = "\n        ".join(arms)
    return f"""
fn m_{ty}(a: u64, b: u64, j: u32) -> u64 {{
    {head}
    match j {{
        {body}
        _ => 0,
    }}
}}
"""


def _kernel(ty: str) -> str:
    m = arm_count(ty)
    return f"""
#[kernel]
pub fn k_{ty}(a: &[u64], b: &[u64], mut out: DisjointSlice<u64>) {{
    let idx = thread::index_1d();
    let t = idx.get();
    if let Some(o) = out.get_mut(idx) {{
        *o = m_{ty}(a[t / {m}], b[t / {m}], (t % {m}) as u32);
    }}
}}
"""


HOST_MAIN = """
fn main() {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).unwrap();
    let v: Vec<u64> = text.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let (a, b) = v.split_at(v.len() / 2);
    for (ty, f, m) in TABLE {
        let _ = ty;
        for i in 0..a.len() {
            for j in 0..m {
                println!("{}", f(a[i], b[i], j));
            }
        }
    }
}
"""


CHAR_TYPES = ("char",)


def source(types=INT_TYPES + FLOAT_TYPES + CHAR_TYPES) -> str:
    """The functions and kernels (no host code)."""
    return "use cuda_device::{kernel, thread, DisjointSlice};\n" + "".join(
        _fn(t) + _kernel(t) for t in types)


def host_source(types=INT_TYPES + FLOAT_TYPES + CHAR_TYPES) -> str:
    table = ", ".join(f'("{t}", m_{t} as fn(u64, u64, u32) -> u64, {arm_count(t)}u32)'
                      for t in types)
    return (source(types).replace("use cuda_device::{kernel, thread, DisjointSlice};\n", "")
            .replace("#[kernel]\n", "#[cfg(any())]\n")
            + f"\nconst TABLE: [(&str, fn(u64, u64, u32) -> u64, u32); {len(types)}] = "
              f"[{table}];\n" + HOST_MAIN)


def int_inputs(rng, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Edge values of every width (0, 1, -1, MIN, MAX, powers of two and their
    neighbours) paired with each other, then random bit patterns of random widths; b's
    high half is the shift/exponent operand `n` (small values, past the width, huge)."""
    edges = [0, 1, 2, 3, 7, 10, 100, 255, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF,
             0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1,
             2 ** 64 - 2, 2 ** 32 + 1, 10 ** 18, 2 ** 53 + 1]
    edges = np.array(edges, dtype=np.uint64)
    k = len(edges)
    pick = rng.integers(0, k, (n // 2, 2))
    a = np.concatenate([edges[pick[:, 0]], rng.integers(0, 2 ** 64, n - n // 2,
                                                        dtype=np.uint64)])
    b = np.concatenate([edges[pick[:, 1]], rng.integers(0, 2 ** 64, n - n // 2,
                                                        dtype=np.uint64)])
    width = rng.integers(1, 65, n).astype(np.uint64)  # narrow random values too
    mask = np.where(width == 64, np.uint64(2 ** 64 - 1),
                    (np.uint64(1) << width) - np.uint64(1))
    a[n // 2:] &= mask[n // 2:]
    shifts = np.concatenate([rng.integers(0, 70, n - n // 4),
                             rng.integers(0, 2 ** 32, n // 4)]).astype(np.uint64)
    rng.shuffle(shifts)
    b = (b & np.uint64(0xFFFF_FFFF)) | (shifts << np.uint64(32))
    b[: n // 4] = edges[pick[: n // 4, 1]]  # some with the full edge value as y
    return a, b


def float_inputs(rng, n: int, ty: str) -> tuple[np.ndarray, np.ndarray]:
    """Bits of edge values (0, -0, subnormals, MIN_POSITIVE, MAX, inf, NaN, halves, integers
    near 2^mantissa) and random values over many binades and random bit patterns."""
    dt = np.float32 if ty == "f32" else np.float64
    ut = np.uint32 if ty == "f32" else np.uint64
    fi = np.finfo(dt)
    edge = [0.0, -0.0, float(fi.smallest_subnormal), float(fi.smallest_normal), float(fi.max),
            np.inf, -np.inf, np.nan, 0.5, -0.5, 1.5, 2.5, -2.5, 1.0, -1.0, 3.0, 1e-3,
            2.0 ** (fi.nmant), 2.0 ** fi.nmant + 1, -(2.0 ** (fi.nmant + 1)) + 0.5, 7.0, -7.25]
    edge = np.array(edge, dtype=dt)
    pick = rng.integers(0, len(edge), (n // 3, 2))
    m = n - n // 3
    rand = (np.exp2(rng.uniform(-30, 30, (m, 2))) * rng.choice([-1.0, 1.0], (m, 2))).astype(dt)
    rand[: m // 4] = np.round(rand[: m // 4] * 4) / 4  # exact halves and quarters
    bits_rand = rng.integers(0, 2 ** (8 * dt().itemsize), (m // 4, 2), dtype=np.uint64)
    rand[-(m // 4):] = bits_rand.astype(ut).view(dt)
    both = np.concatenate([edge[pick], rand])
    return (both[:, 0].view(ut).astype(np.uint64), both[:, 1].view(ut).astype(np.uint64))
