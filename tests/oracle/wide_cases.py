"""u128/i128 as one Rust program (the model of num_cases.py): for T in u128, i128 a
`fn w_T(a, b, c, d: u64, j: u32) -> T` whose arm `j` computes with `x = a:b` and `y = c:d`
(high:low halves), `n` a shift amount from d's high half and `f`/`g` the floats with a's
bits, and one kernel per type writing each result's low and high halves. Compiled by rustc
with a host `main` and by oxidec; test_wide_oracle.py compares the two.
"""
from __future__ import annotations

import numpy as np

TYPES = ("u128", "i128")

ARMS: list[tuple[str, str]] = [  # (Rust expression of type T, "" both, "S" signed, "N" unsigned)
    ("x + y", ""), ("x - y", ""), ("x * y", ""), ("x.wrapping_add(y)", ""),
    ("x.wrapping_sub(y)", ""), ("x.wrapping_mul(y)", ""), ("x.wrapping_neg()", ""),
    ("-x", "S"), ("x & y", ""), ("x | y", ""), ("x ^ y", ""), ("!x", ""),
    ("x << n", ""), ("x >> n", ""), ("x << (n & 127)", ""), ("x >> (n & 127)", ""),
    ("x.wrapping_shl(n)", ""), ("x.wrapping_shr(n)", ""), ("x << 64", ""), ("x >> 64", ""),
    ("x >> 127", ""), ("x << 1", ""), ("x >> 63", ""), ("y << 65", ""),
    ("match x.checked_add(y) { Some(v) => v, None => 7 }", ""),
    ("match x.checked_sub(y) { Some(v) => v, None => 7 }", ""),
    ("match x.checked_shl(n) { Some(v) => v, None => 7 }", ""),
    ("match x.checked_neg() { Some(v) => v, None => 7 }", ""),
    ("{ let (v, o) = x.overflowing_neg(); if o { !v } else { v } }", ""),
    ("match x.checked_shr(n) { Some(v) => v, None => 7 }", ""),
    ("{ let (v, o) = x.overflowing_add(y); if o { !v } else { v } }", ""),
    ("{ let (v, o) = x.overflowing_sub(y); if o { !v } else { v } }", ""),
    ("{ let (v, o) = x.overflowing_shr(n); if o { !v } else { v } }", ""),
    ("x.saturating_add(y)", ""), ("x.saturating_sub(y)", ""),
    ("((x < y) as T) | (((x <= y) as T) << 1) | (((x > y) as T) << 2) | "
     "(((x >= y) as T) << 3) | (((x == y) as T) << 4) | (((x != y) as T) << 5)", ""),
    ("((x < x) as T) | (((x == x) as T) << 1) | (((y >= y) as T) << 2)", ""),
    ("if x < y { x } else { y }", ""), ("if x > y { x } else { y }", ""),
    ("(x as u8) as T", ""), ("(x as i8) as T", ""), ("(x as u16) as T", ""),
    ("(x as i32) as T", ""), ("(x as u64) as T", ""), ("(x as i64) as T", ""),
    ("(x as usize) as T", ""), ("(x as u128 as i128) as T", ""), ("(x as i128 as u128) as T", ""),
    ("(a as i32) as T", ""), ("(a as i64) as T", ""), ("(b as u8) as T", ""),
    ("(b as i16) as T", ""), ("(a as usize) as T", ""), ("(a > b) as T", ""),
    ("(char::from_u32((b as u32) % 0xD800).unwrap() as T)", ""),
    ("(x as f32).to_bits() as T", ""), ("(x as f64).to_bits() as T", ""),
    ("((x >> (n & 127)) as f32).to_bits() as T", ""),
    ("((x >> (n & 127)) as f64).to_bits() as T", ""),
    ("f as T", ""), ("g as T", ""), ("(f * 1.0e30) as T", ""), ("(g * 1.0e20) as T", ""),
    ("(-f) as T", ""), ("(f.abs() * 3.4e38) as T", ""),
    ("(x as f64) as T", ""), ("(x as f32) as T", ""),
    ("0xFFFF_FFFF_FFFF_FFFF_0123_4567_89AB_CDEF_u128 as T ^ x", ""),
    ("170141183460469231731687303715884105727 ^ x", "S"),
    ("340282366920938463463374607431768211455 ^ x", "N"),
    ("T::MAX ^ T::MIN ^ (T::BITS as T) ^ x", ""),
    ("match x & 3 { 0 => y, 1 => 5, 2 => 99999999999999999999999, _ => x }", ""),
    ("match x { 0 => 1, 1 => 2, _ => 3 }", ""),
    ("{ let mut s: T = 0; let mut i: T = 1; while i < 5 { s = s * 0x1_0000_0000_0001 + (x ^ i); i += 1; } s }", ""),
    ("{ let mut v = x; v += y; v <<= 3; v ^= y; v -= 1; v *= 3; v >>= 1; v }", ""),
    ("{ let arr: [T; 3] = [x, y, x ^ y]; arr[(b % 3) as usize] }", ""),
    ("{ let t = (x, 1u8, y); t.0 ^ t.2 }", ""),
]

SIGNED_PREFIX = {"u128": "N", "i128": "S"}


def arms_of(ty: str) -> list[str]:
    return [e.replace("T::", f"{ty}::").replace("as T", f"as {ty}").replace(": T", f": {ty}").replace("[T;", f"[{ty};")
            for e, which in ARMS if which in ("", SIGNED_PREFIX[ty])]


def arm_count(ty: str) -> int:
    return len(arms_of(ty))


def _fn(ty: str) -> str:
    arms = "\n        ".join(f"{j} => {e}," for j, e in enumerate(arms_of(ty)))
    return f"""
fn w_{ty}(a: u64, b: u64, c: u64, d: u64, j: u32) -> {ty} {{
    let x = (((a as u128) << 64) | (b as u128)) as {ty};
    let y = (((c as u128) << 64) | (d as u128)) as {ty};
    let n = ((d >> 32) as u32) % 160;
    let f = f32::from_bits(b as u32);
    let g = f64::from_bits(b);
    match j {{
        {arms}
        _ => 0,
    }}
}}
"""


def _kernel(ty: str) -> str:
    m = arm_count(ty)
    return f"""
#[kernel]
pub fn k_{ty}(a: &[u64], b: &[u64], c: &[u64], d: &[u64], mut out: DisjointSlice<u64>) {{
    let idx = thread::index_1d();
    let t = idx.get();
    let q = t / 2;
    if let Some(o) = out.get_mut(idx) {{
        let r = w_{ty}(a[q / {m}], b[q / {m}], c[q / {m}], d[q / {m}], (q % {m}) as u32);
        *o = if t % 2 == 0 {{ r as u64 }} else {{ (r >> 64) as u64 }};
    }}
}}
"""


HOST_MAIN = """
fn main() {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).unwrap();
    let v: Vec<u64> = text.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v.len() / 4;
    let (a, b, c, d) = (&v[..n], &v[n..2 * n], &v[2 * n..3 * n], &v[3 * n..]);
    for i in 0..n {
        for j in 0..M_U128 {
            let r = w_u128(a[i], b[i], c[i], d[i], j);
            println!("{}\\n{}", r as u64, (r >> 64) as u64);
        }
    }
    for i in 0..n {
        for j in 0..M_I128 {
            let r = w_i128(a[i], b[i], c[i], d[i], j);
            println!("{}\\n{}", r as u64, (r >> 64) as u64);
        }
    }
}
"""


def source() -> str:
    return "use cuda_device::{kernel, thread, DisjointSlice};\n" + "".join(
        _fn(t) + _kernel(t) for t in TYPES)


def host_source() -> str:
    return (source().replace("use cuda_device::{kernel, thread, DisjointSlice};\n", "")
            .replace("#[kernel]\n", "#[cfg(any())]\n")
            + f"const M_U128: u32 = {arm_count('u128')};\nconst M_I128: u32 = "
              f"{arm_count('i128')};\n" + HOST_MAIN)


def inputs(rng, n: int) -> tuple[np.ndarray, ...]:
    """High halves mostly 0 or all ones (small and negative values), low halves from edge
    values; the rest random bits; float bit patterns in b for the float casts."""
    edges = np.array([0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0xFFFF_FFFF, 2 ** 63 - 1, 2 ** 63,
                      2 ** 64 - 1, 2 ** 64 - 2, 10 ** 18, 2 ** 53 + 1, 0x4F80_0000,
                      0x7F80_0000, 0x7FC0_0000, 0x4330_0000_0000_0001, 0x47EF_FFFF_FFFF_FFFF,
                      0x47E0_0000_0000_0000, 0xC7E0_0000_0000_0001, 0x7FF8_0000_0000_0000],
                     dtype=np.uint64)
    highs = np.array([0, 2 ** 64 - 1, 1, 2 ** 63, 2 ** 63 - 1], dtype=np.uint64)
    out = []
    for k in range(4):
        rand = rng.integers(0, 2 ** 64, n, dtype=np.uint64)
        pool = highs if k in (0, 2) else edges
        pick = pool[rng.integers(0, len(pool), n)]
        v = np.where(rng.random(n) < 0.6, pick, rand)
        out.append(v)
    return tuple(out)
