"""Enums declared in modules, named through `use`/module/`crate::` paths, with inherent
methods matching on `Self::Variant` (simulator and GPU)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxidec import api

KERNEL = Path(__file__).resolve().parent / "kernels" / "enum_items.rs"


def reference(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for i, v in enumerate(x):
        if i % 2 == 1:  # odd flips to Even: Add(0.5)
            out[i] = v + np.float32(0.5)
        else:
            out[i] = v if i % 3 == 0 else -v
    return out


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_enum_items_match_reference(device, rng) -> None:
    module = api.compile_file(KERNEL)
    n = 128
    x = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    module.enum_items[(n // 64, 1, 1), (64, 1, 1)](x, out, device=device)
    np.testing.assert_array_equal(out, reference(x))
