"""Pieces the view and vector kernel tests share: comparing a run's named outputs with their
references, and the rendered diagnostics of a source (empty when it compiles)."""
from __future__ import annotations

import numpy as np

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all


def check(results) -> None:
    """`results`: name -> (got, want, tol); tol 0 means bit-exact."""
    for name, (got, want, tol) in results.items():
        if tol:
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)


def diagnostics(src: str) -> str:
    try:
        driver.compile_source(src, "v.rs", driver.Options())
    except CompileError as err:
        return render_all(err.diagnostics)
    return ""
