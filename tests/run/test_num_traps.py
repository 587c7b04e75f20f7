"""The integer and char methods that panic in Rust (in release builds too) trap on the
simulator with core's message, in the thread that gave the bad argument only; the others
finish their work."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import api

CASES = {
    "x.wrapping_div(y)": ("u32", "attempt to divide by zero", 0),
    "x.div_euclid(y)": ("i32", "attempt to divide with overflow", -1),
    "x.rem_euclid(y)": ("i64", "attempt to calculate the remainder with a divisor of zero", 0),
    "x.div_ceil(y)": ("u64", "attempt to divide by zero", 0),
    "(x - y).ilog2() as {t}": ("u16", "argument of integer logarithm must be positive", None),
    "(x - y).ilog10() as {t}": ("i32", "argument of integer logarithm must be positive", None),
    "(y - x).isqrt()": ("i64", "argument of integer square root cannot be negative", None),
    "(y as u8 as char).to_digit(x as u32).unwrap_or(0) as {t}":
        ("u32", "to_digit: invalid radix", None),
}


def _source(expr: str, t: str) -> str:
    return f"""
#[kernel]
pub fn k(a: &[{t}], b: &[{t}], mut out: DisjointSlice<{t}>) {{
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {{
        let (x, y) = (a[i], b[i]);
        *o = {expr.format(t=t)};
    }}
}}
"""


@pytest.mark.parametrize("expr", CASES)
def test_panicking_method_traps(expr: str, rng) -> None:
    from oxidec.sim import SimTrap
    t, message, bad_y = CASES[expr]
    module = api.compile_source(_source(expr, t), "num_trap.rs")
    n = 64
    dt = np.dtype({"u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "i32": np.int32,
                   "i64": np.int64}[t])
    a = rng.integers(1, 100, n).astype(dt)
    b = rng.integers(1, 100, n).astype(dt)
    if "isqrt" in expr:
        b = a + rng.integers(0, 100, n).astype(dt)  # y - x >= 0
    elif "ilog" in expr:
        a = b + rng.integers(1, 100, n).astype(dt)  # x - y > 0
    elif "to_digit" in expr:
        a = rng.integers(2, 37, n).astype(dt)  # every valid radix
    bad = int(rng.integers(0, n))
    if bad_y is not None:
        b[bad] = bad_y
        if bad_y == -1:
            a[bad] = np.iinfo(dt).min
    elif "isqrt" in expr:
        b[bad] = a[bad] - 1
    elif "ilog" in expr:
        a[bad] = b[bad]
    else:  # to_digit
        a[bad] = 37
    out = np.zeros(n, dt)
    with pytest.raises(SimTrap) as err:
        module.k[(1, 1, 1), (n, 1, 1)](a, b, out, device="sim")
    assert message in str(err.value)
    assert f"thread ({bad},0,0)" in str(err.value)
