"""Every sample kernel, launched on fresh random inputs with poisoned outputs, matches its
NumPy reference: on the CPU simulator always, on the GPU when there is one (`gpu` mark), and
the two agree with each other."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from samples.reference import ALL_CASES, PENDING

ROOT = Path(__file__).resolve().parents[2]

CASES = {case.id: case for case in ALL_CASES}


def compiled(case):
    try:
        return driver.compile_file(case.path)
    except CompileError as err:
        xfail_if_pending(case.sample, err)
        raise


def xfail_if_pending(sample: str, err: CompileError) -> None:
    """A sample waiting for a compiler feature (reference.PENDING) fails with its known
    diagnostic: that is an expected failure, anything else is a real one."""
    pending = PENDING.get(sample)
    if pending and pending[0] in render_all(err.diagnostics):
        pytest.xfail(pending[1])


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_sample_on_simulator(case_id: str, rng) -> None:
    from oxidec.sim import run_kernel
    case = CASES[case_id]
    comp = compiled(case)
    inputs = case.make_inputs(rng, small=True)
    grid, block = case.launch(inputs)
    run_kernel(comp.program, case.kernel, grid, block, case.args(inputs))
    case.assert_matches(inputs)


@pytest.mark.gpu
@pytest.mark.parametrize("case_id", sorted(CASES))
def test_sample_on_gpu(case_id: str, rng) -> None:
    from oxidec.api import compile_file
    case = CASES[case_id]
    compiled(case)
    module = compile_file(case.path)
    inputs = case.make_inputs(rng)
    grid, block = case.launch(inputs)
    getattr(module, case.kernel)[grid, block](*case.args(inputs), device="gpu")
    case.assert_matches(inputs)


@pytest.mark.gpu
@pytest.mark.parametrize("case_id", sorted(CASES))
def test_simulator_and_gpu_agree(case_id: str, rng) -> None:
    from oxidec.api import compile_file
    case = CASES[case_id]
    compiled(case)
    module = compile_file(case.path)
    inputs = case.make_inputs(rng, small=True)
    grid, block = case.launch(inputs)
    kernel = getattr(module, case.kernel)
    sim_out = case.fresh_outputs(inputs)
    gpu_out = case.fresh_outputs(inputs)
    kernel[grid, block](*case.args(inputs, sim_out), device="sim")
    kernel[grid, block](*case.args(inputs, gpu_out), device="gpu")
    if case.unordered_sums:  # tensor cores: both within the tolerance of the reference
        case.assert_matches(inputs, sim_out)
        case.assert_matches(inputs, gpu_out)
        return
    for name in case.output_names:
        got, want = gpu_out[name], sim_out[name]
        if got.dtype.kind == "f":
            # .rn operations round identically on both; only contraction choices could differ.
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)
        else:
            np.testing.assert_array_equal(got, want)


def test_references_agree_with_naive_versions(rng) -> None:
    # samples/selfcheck.py re-implements the older samples one thread at a time in scalars;
    # the vectorised references the GPU is judged by must agree with it.
    proc = subprocess.run([sys.executable, str(ROOT / "samples" / "selfcheck.py"),
                           "--seed", str(int(rng.integers(1 << 62)))],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-5000:]
    assert ": OK" in proc.stdout
