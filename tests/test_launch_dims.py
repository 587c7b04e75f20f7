"""passes/launch_dims.py: a launch contract's exact block shape (`.reqntid`) makes
`%ntid.x/y/z` constants, so index arithmetic and `index_1d`'s one-dimensional-launch test
fold."""
from __future__ import annotations

import numpy as np

from oxidec import api, driver

SOURCE = """
#[kernel]
{contract}
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {{
    let t = thread::index_1d();
    let i = t.get();
    let w = thread::blockDim_x() as f32;
    if let Some(o) = out.get_mut(t) {{
        if i < x.len() {{ *o = x[i] * 2.0 + w; }}
    }}
}}
"""
CONTRACT = "#[launch_contract(block = (128, 1, 1))]"


def ptx(contract: str) -> str:
    return driver.compile_source(SOURCE.format(contract=contract), "k.rs",
                                 driver.Options(line_info=False)).ptx


def test_contract_block_folds_ntid() -> None:
    assert ".reqntid 128, 1, 1" in ptx(CONTRACT)
    assert "%ntid" not in ptx(CONTRACT)
    assert "%ntid.x" in ptx("") and "%ntid.y" in ptx("")  # no contract: read at run time


def test_folded_kernel_runs_the_same(rng) -> None:
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    module = api.compile_source(SOURCE.format(contract=CONTRACT), "k.rs")
    out = np.full(n, np.nan, np.float32)
    module.k[((n + 127) // 128, 1, 1), (128, 1, 1)](x, out, device="sim")
    np.testing.assert_array_equal(out, x * np.float32(2.0) + np.float32(128.0))
