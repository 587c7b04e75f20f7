"""rustc as the reference for `u128`/`i128` (tests/oracle/wide_cases.py): arithmetic,
shifts, comparisons, casts to and from every other integer and the floats, literals and the
wrapping/checked/overflowing/saturating forms, on edge values (0, 1, -1, MIN, MAX, powers
of two, float bit patterns near 2^64 and 2^128, NaN) and fresh random ones. The simulator
runs the MIR after passes/wide_ints.py, i.e. the 64-bit expansion the GPU runs; every
result must agree with rustc exactly. The PTX must assemble for sm_80 and sm_90.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

import tests.oracle.wide_cases as W

N_INPUTS = 48


def rustc_outputs(inputs, tmp: Path) -> np.ndarray:
    rs = tmp / "wide.rs"
    rs.write_text("#![allow(unused, dead_code, unused_comparisons, overflowing_literals, "
                  "arithmetic_overflow)]\n" + W.host_source())
    exe = tmp / "wide"
    proc = subprocess.run(["rustc", "--edition", "2021", "-O", "-C", "overflow-checks=off",
                           "-o", str(exe), str(rs)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[:4000]
    text = " ".join(str(int(v)) for v in np.concatenate(inputs))
    run = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
    return np.array([int(t) for t in run.stdout.split()], dtype=np.uint64)


def compile_wide(arch: str = "sm_80"):
    try:
        return driver.compile_source(W.source(), "wide_ints.rs",
                                     driver.Options(fmad=False, arch=arch))
    except CompileError as err:
        pytest.fail(render_all(err.diagnostics))


@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
def test_wide_ints_match_rustc(rng, tmp_path: Path) -> None:
    from oxidec.sim import run_kernel
    inputs = W.inputs(rng, N_INPUTS)
    want = rustc_outputs(inputs, tmp_path)
    comp = compile_wide()
    start = 0
    for ty in W.TYPES:
        m = W.arm_count(ty)
        n = 2 * N_INPUTS * m
        out = np.full(n, 0xDEAD_BEEF_0BAD_F00D, dtype=np.uint64)
        run_kernel(comp.program, f"k_{ty}", ((n + 127) // 128, 1, 1), (128, 1, 1),
                   [*inputs, out])
        bad = np.flatnonzero(out != want[start:start + n])
        if bad.size:
            i = bad[0] // 2
            pytest.fail(f"{ty}: {bad.size} of {n} halves differ; first: `{W.arms_of(ty)[i % m]}` "
                        f"with a:b={int(inputs[0][i // m]):#x}:{int(inputs[1][i // m]):#x} "
                        f"c:d={int(inputs[2][i // m]):#x}:{int(inputs[3][i // m]):#x}: rustc "
                        f"{int(want[start + 2 * i + 1]):#x}:{int(want[start + 2 * i]):#x}, oxidec "
                        f"{int(out[2 * i + 1]):#x}:{int(out[2 * i]):#x}")
        start += n


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_wide_ints_ptx_assembles(arch: str, tmp_path: Path) -> None:
    ptx = tmp_path / "wide.ptx"
    ptx.write_text(compile_wide(arch).ptx)
    proc = subprocess.run(["ptxas", f"-arch={arch}", str(ptx), "-o", str(tmp_path / "w.cubin")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[:3000]
    text = ptx.read_text()
    assert "mul.hi.u64" in text  # the high half of the 64x64 product of the low halves


@pytest.mark.gpu
@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
def test_wide_ints_on_gpu_match_rustc(rng, tmp_path: Path) -> None:
    """The same kernels on the GPU: the 64-bit expansion as ptxas compiles it."""
    from oxidec.api import compile_source
    inputs = W.inputs(rng, N_INPUTS)
    want = rustc_outputs(inputs, tmp_path)
    module = compile_source(W.source(), "wide_ints.rs", fmad=False)
    start = 0
    for ty in W.TYPES:
        n = 2 * N_INPUTS * W.arm_count(ty)
        gpu = np.full(n, 0xDEAD_BEEF_0BAD_F00D, dtype=np.uint64)
        module.kernel(f"k_{ty}").launch(((n + 127) // 128, 1, 1), (128, 1, 1), *inputs, gpu,
                                        device="gpu")
        bad = np.flatnonzero(gpu != want[start:start + n])
        assert bad.size == 0, (f"{ty}: {bad.size} of {n} halves differ; first "
                               f"`{W.arms_of(ty)[(bad[0] // 2) % W.arm_count(ty)]}`")
        start += n
