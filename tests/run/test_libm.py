"""Crate `libm` on the device (issue 11): `libm::sinf(x)` is `x.sin()` (oxidec/mathlib) for
every libm function, f32 and f64. On the simulator against NumPy (the exact ones bit for
bit, the others within mathlib's ulp bounds plus NumPy's own error), through ptxas, and on
the GPU against the same references."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.device_api.libm import ROUTINES
from oxidec.diagnostics import CompileError, render_all

# (libm name, NumPy reference, arity, domain (lo, hi), exact)
CASES = [
    ("sin", np.sin, 1, (-20, 20), False), ("cos", np.cos, 1, (-20, 20), False),
    ("tan", np.tan, 1, (-1.5, 1.5), False), ("asin", np.arcsin, 1, (-1, 1), False),
    ("acos", np.arccos, 1, (-1, 1), False), ("atan", np.arctan, 1, (-50, 50), False),
    ("atan2", np.arctan2, 2, (-5, 5), False), ("sinh", np.sinh, 1, (-8, 8), False),
    ("cosh", np.cosh, 1, (-8, 8), False), ("tanh", np.tanh, 1, (-8, 8), False),
    ("asinh", np.arcsinh, 1, (-50, 50), False), ("acosh", np.arccosh, 1, (1, 50), False),
    ("atanh", np.arctanh, 1, (-0.99, 0.99), False), ("exp", np.exp, 1, (-20, 20), False),
    ("exp2", np.exp2, 1, (-20, 20), False), ("expm1", np.expm1, 1, (-3, 3), False),
    ("log", np.log, 1, (1e-3, 1e4), False), ("log2", np.log2, 1, (1e-3, 1e4), False),
    ("log10", np.log10, 1, (1e-3, 1e4), False), ("log1p", np.log1p, 1, (-0.5, 10), False),
    ("pow", np.power, 2, (0.1, 4), False), ("cbrt", np.cbrt, 1, (-100, 100), False),
    ("hypot", np.hypot, 2, (-100, 100), False),
    ("sqrt", np.sqrt, 1, (0, 100), True), ("fabs", np.abs, 1, (-9, 9), True),
    ("floor", np.floor, 1, (-9, 9), True), ("ceil", np.ceil, 1, (-9, 9), True),
    ("trunc", np.trunc, 1, (-9, 9), True),
    ("round", lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x), 1, (-9, 9), True),
    ("rint", np.rint, 1, (-9, 9), True), ("fmax", np.fmax, 2, (-9, 9), True),
    ("fmin", np.fmin, 2, (-9, 9), True), ("fma", None, 3, (-9, 9), True),
    ("copysign", np.copysign, 2, (-9, 9), True), ("fmod", np.fmod, 2, (-50, 50), True),
]


def kernel_source(ty: str) -> str:
    suffix = "f" if ty == "f32" else ""
    lines = []
    for k, (name, _, arity, _, _) in enumerate(CASES):
        args = ", ".join(f"{'abc'[j]}[i]" for j in range(arity))
        lines.append(f"        *out.add(i * N + {k}) = libm::{name}{suffix}({args});")
    n = len(CASES)
    return f"""
use cuda_device::{{kernel, thread}};
const N: usize = {n + 2};

#[kernel]
pub unsafe fn maths(a: &[{ty}], b: &[{ty}], c: &[{ty}], out: *mut {ty}) {{
    let i = thread::index_1d().get();
    if i < a.len() {{
{chr(10).join(lines)}
        let (s, co) = libm::sincos{suffix}(a[i]);
        *out.add(i * N + {n}) = s;
        *out.add(i * N + {n + 1}) = co;
    }}
}}
"""


def inputs(rng, ty, k):
    dt = np.dtype(ty.replace("f", "float"))
    cols = []
    for name, _, arity, (lo, hi), _ in CASES:
        cols.append([rng.uniform(lo, hi, k).astype(dt) for _ in range(3)])
    return cols, dt


def run(device, rng, ty, k=96):
    """Each function gets its own inputs in its domain: one launch per function's inputs
    would be slow, so the kernel computes every function on a, b, c and the test feeds
    function j's domain through a launch per function."""
    m = compile_source(kernel_source(ty), "maths.rs")
    cols, dt = inputs(rng, ty, k)
    n = len(CASES) + 2
    results = []
    for j, (a, b, c) in enumerate(cols):
        out = np.full(k * n, np.nan, dt)
        m.maths[((k + 31) // 32,), (32,)](a, b, c, out, device=device)
        results.append((out.reshape(k, n), a, b, c))
    return results, dt


def ulps(got: np.ndarray, want: np.ndarray, dt) -> np.ndarray:
    want = want.astype(dt)
    spacing = np.abs(np.spacing(want.astype(dt)))
    spacing = np.where(spacing == 0, np.finfo(dt).smallest_subnormal, spacing)
    return np.abs(got.astype(np.float64) - want.astype(np.float64)) / spacing


def check(results, dt):
    bound = 3.0 if dt == np.float32 else 4.0  # mathlib's 1-2 ulp + NumPy's own error
    for j, (name, ref, arity, _, exact) in enumerate(CASES):
        out, a, b, c = results[j]
        got = out[:, j]
        args = [v.astype(np.float64) for v in (a, b, c)[:arity]]
        if name == "fma":
            from fractions import Fraction
            want = np.array([float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                             for x, y, z in zip(a, b, c)])
        else:
            want = ref(*args)
        if exact:
            np.testing.assert_array_equal(got, want.astype(dt), err_msg=name)
        else:
            worst = ulps(got, want, dt).max()
            assert worst <= bound, f"libm::{name}: {worst} ulp from NumPy"
    out, a, _, _ = results[0]  # sincos on sin's inputs: the same bits as sin and cos
    n = len(CASES)
    np.testing.assert_array_equal(out[:, n], out[:, 0])
    out1, a1, _, _ = results[1]
    np.testing.assert_array_equal(out1[:, n + 1], out1[:, 1])


@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_libm_on_the_simulator(ty, rng):
    check(*run("sim", rng, ty))


def test_every_libm_routine_is_tested():
    assert {c[0] for c in CASES} == set(ROUTINES) | {"fmod"}


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_libm_assembles(arch, ptxas, tmp_path):
    for ty in ("f32", "f64"):
        try:
            ptx = driver.compile_source(kernel_source(ty), "m.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        path = tmp_path / f"{ty}.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "m.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_libm_on_gpu(ty, rng):
    check(*run("gpu", rng, ty, k=256))
