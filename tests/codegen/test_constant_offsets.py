"""Constant indices out of range (in a branch never taken) fold into address displacements
that wrap as 64-bit two's complement: ptxas rejected `[%rd1+147573952589676412880]`
("Constant overflow"); the module must assemble at every -O level and still run right.
The index arithmetic wraps explicitly: rustc (and oxidec) reject `i * 3` on a known
`(-9isize) as usize` (arithmetic_overflow)."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import api, driver

INDICES = ["(-9isize) as usize", "(-9223372036854775807isize) as usize", "usize::MAX - 1"]


def source(ty: str, index: str) -> str:
    return f"""
#[kernel]
pub unsafe fn k(x: &[{ty}], mut out: DisjointSlice<{ty}>, s: &mut [{ty}], n: usize) {{
    let t = thread::index_1d();
    let k = t.get();
    let i = {index};
    if let Some(o) = out.get_mut(t) {{
        if k > n {{
            *o = x[i.wrapping_add(3)];
            s[i] = x[i.wrapping_mul(3)];
        }} else {{
            *o = x[k];
        }}
    }}
}}
"""


@pytest.mark.parametrize("ty", ["f32", "f64", "u8", "i16"])
@pytest.mark.parametrize("index", INDICES)
def test_wrapped_displacement_assembles(ptxas, tmp_path, ty: str, index: str) -> None:
    for level in (0, 1, 2):
        ptx = driver.compile_source(source(ty, index), "k.rs",
                                    driver.Options(opt_level=level)).ptx
        for disp in (int(d) for d in __import__("re").findall(r"\+(-?\d+)\]", ptx)):
            assert -(1 << 63) <= disp < 1 << 63, disp
        path = tmp_path / f"k{level}.ptx"
        path.write_text(ptx)
        result = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_folded_index_displacement_is_the_wrapped_offset() -> None:
    ptx = driver.compile_source(source("f64", INDICES[0]), "k.rs").ptx
    assert "+-48]" in ptx  # (-9 + 3) * 8


def test_branch_not_taken_still_runs(rng) -> None:
    module = api.compile_source(source("f32", INDICES[0]), "k.rs")
    n = 300
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    s = np.full(4, np.nan, np.float32)
    module.k[(2, 1, 1), (256, 1, 1)](x, out, s, np.uint64(n), device="sim")
    np.testing.assert_array_equal(out, x)
