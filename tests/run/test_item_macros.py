"""`macro_rules!` item macros (syntax/macro_rules.py): tables built by a const block in an
expansion, functions from a repetition, a macro calling a macro, a call inside a module;
the kernel that uses them, on the simulator and the GPU, against NumPy."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxidec import api, driver
from oxidec.diagnostics import CompileError, render_all

KERNEL = Path(__file__).resolve().parent / "kernels" / "item_macros.rs"


def expected(x: np.ndarray) -> np.ndarray:
    v = x.astype(np.uint64)
    squares = (v % 16) ** 2
    base_table = (42 + v % 4) * 2
    f = ((v * 3) & 0xFFFFFFFF) ^ ((v * 7) & 0xFFFFFFFF) ^ ((v * 11) & 0xFFFFFFFF)
    return ((squares + base_table + f + 42) & 0xFFFFFFFF).astype(np.uint32)


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_item_macros(device, rng) -> None:
    module = api.compile_file(KERNEL)
    n = 256
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    out = np.full(n, 0xDEADBEEF, np.uint32)
    module.use_macros[(n // 64, 1, 1), (64, 1, 1)](x, out, device=device)
    np.testing.assert_array_equal(out, expected(x))


def test_no_rule_matches_is_reported_at_the_call() -> None:
    src = KERNEL.read_text().replace("table!(SQUARES: [u32; 16]", "table!(SQUARES [u32; 16]")
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "item_macros.rs")
    text = render_all(err.value.diagnostics)
    assert "no rules expected this token in macro call of `table!`" in text
    assert "item_macros.rs:" in text
