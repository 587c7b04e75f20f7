"""rustc as the reference for `core`'s integer and float methods (tests/oracle/num_cases.py):
every method family on every integer type and the float methods that are correctly rounded
(rounding, classification, euclidean division, `%`, `mul_add`, `sqrt`, bit casts), on fresh
random inputs with the edge values of each width (0, 1, -1, MIN, MAX, powers of two, NaN,
infinities, subnormals). Integers must agree exactly; floats bit for bit, except that the
payload and sign of a NaN are not compared (x86 and the GPU make different NaNs; oxidec's is
the canonical quiet NaN).
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

import tests.oracle.num_cases as C

N_INPUTS = 96


def rustc_outputs(types, a: np.ndarray, b: np.ndarray, tmp: Path) -> np.ndarray:
    rs = tmp / "num.rs"
    rs.write_text("#![allow(unused, dead_code, unused_comparisons, overflowing_literals)]\n"
                  + C.host_source(types))
    exe = tmp / "num"
    proc = subprocess.run(["rustc", "--edition", "2021", "-O", "-C", "overflow-checks=off",
                           "-o", str(exe), str(rs)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[:4000]
    text = " ".join(str(int(v)) for v in np.concatenate([a, b]))
    run = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
    return np.array([int(t) for t in run.stdout.split()], dtype=np.uint64)


def oxidec_outputs(types, a: np.ndarray, b: np.ndarray) -> dict[str, np.ndarray]:
    from oxidec.sim import run_kernel
    try:
        comp = driver.compile_source(C.source(types), "num_methods.rs",
                                     driver.Options(fmad=False))
    except CompileError as err:
        pytest.fail(render_all(err.diagnostics))
    outs = {}
    for ty in types:
        n = len(a) * C.arm_count(ty)
        out = np.full(n, 0xDEAD_BEEF_0BAD_F00D, dtype=np.uint64)
        run_kernel(comp.program, f"k_{ty}", ((n + 127) // 128, 1, 1), (128, 1, 1), [a, b, out])
        outs[ty] = out
    return outs


def _compare(ty: str, want: np.ndarray, got: np.ndarray, a, b) -> None:
    m = C.arm_count(ty)
    same = want == got
    if ty in C.FLOAT_TYPES:
        view = np.float32 if ty == "f32" else np.float64
        width = np.uint32 if ty == "f32" else np.uint64
        wn = np.isnan(want.astype(width).view(view))
        gn = np.isnan(got.astype(width).view(view))
        same |= wn & gn
    bad = np.flatnonzero(~same)
    if bad.size:
        i = bad[0]
        arms = C.arms_of(ty)
        pytest.fail(f"{ty}: {bad.size} of {want.size} differ; first: `{arms[i % m]}` with "
                    f"a={int(a[i // m]):#x} b={int(b[i // m]):#x}: rustc {int(want[i]):#x}, "
                    f"oxidec {int(got[i]):#x}")


@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
def test_int_methods_match_rustc(rng, tmp_path: Path) -> None:
    a, b = C.int_inputs(rng, N_INPUTS)
    types = C.INT_TYPES
    want = rustc_outputs(types, a, b, tmp_path)
    got = oxidec_outputs(types, a, b)
    start = 0
    for ty in types:
        n = len(a) * C.arm_count(ty)
        _compare(ty, want[start:start + n], got[ty], a, b)
        start += n
    assert start == want.size


@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
@pytest.mark.parametrize("ty", C.FLOAT_TYPES)
def test_float_methods_match_rustc(ty: str, rng, tmp_path: Path) -> None:
    a, b = C.float_inputs(rng, N_INPUTS, ty)
    want = rustc_outputs((ty,), a, b, tmp_path)
    got = oxidec_outputs((ty,), a, b)[ty]
    _compare(ty, want, got, a, b)


@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
def test_char_methods_match_rustc(rng, tmp_path: Path) -> None:
    """`char`: literals and patterns, `as` casts, comparisons, the ASCII classes and case
    maps, `to_digit`/`is_digit` over every radix, `len_utf8`, `from_u32` (surrogates and
    values past 0x10FFFF are None), `from_digit`."""
    a, b = C.int_inputs(rng, N_INPUTS)
    a[: N_INPUTS // 4] = rng.choice([0xD7FF, 0xD800, 0xDFFF, 0xE000, 0x10FFFF, 0x110000, 0x7F,
                                     0x80, 0x7FF, 0x800, 0xFFFF, 0x10000], N_INPUTS // 4)
    b[: N_INPUTS // 2] = (b[: N_INPUTS // 2] & np.uint64(0xFFFF_FFFF_0000_0000)) | rng.integers(
        0, 128, N_INPUTS // 2).astype(np.uint64)  # ASCII for y
    want = rustc_outputs(C.CHAR_TYPES, a, b, tmp_path)
    got = oxidec_outputs(C.CHAR_TYPES, a, b)["char"]
    _compare("char", want, got, a, b)
