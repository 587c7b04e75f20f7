"""The integer and float method families of tests/oracle/num_cases.py on the GPU: each type's
kernel, run on the same fresh inputs with poisoned outputs by the GPU and by the simulator,
gives the same bits (which test_num_oracle.py checks against rustc). Integers exactly;
floats exactly except NaN payloads (PTX leaves the NaN of one instruction unspecified and
the simulator does not model it)."""
from __future__ import annotations

import numpy as np
import pytest

import tests.oracle.num_cases as C
from oxidec import driver

TYPES = C.INT_TYPES + C.FLOAT_TYPES + C.CHAR_TYPES
POISON = 0xDEAD_BEEF_0BAD_F00D


@pytest.fixture(scope="module")
def source() -> str:
    return C.source(TYPES)


@pytest.mark.gpu
@pytest.mark.parametrize("ty", TYPES)
def test_gpu_matches_simulator(source: str, ty: str, rng) -> None:
    from oxidec.api import compile_source
    from oxidec.sim import run_kernel
    n_in = 512
    a, b = C.float_inputs(rng, n_in, ty) if ty in C.FLOAT_TYPES else C.int_inputs(rng, n_in)
    m = C.arm_count(ty)
    n = n_in * m
    grid, block = ((n + 255) // 256, 1, 1), (256, 1, 1)
    sim = np.full(n, POISON, dtype=np.uint64)
    program = driver.compile_source(source, "num_methods.rs", driver.Options(fmad=False)).program
    run_kernel(program, f"k_{ty}", grid, block, [a, b, sim])
    module = compile_source(source, "num_methods.rs", fmad=False)
    gpu = np.full(n, POISON, dtype=np.uint64)
    module.kernel(f"k_{ty}").launch(grid, block, a, b, gpu, device="gpu")
    assert not np.any(gpu == POISON), "the GPU left outputs unwritten"
    same = gpu == sim
    if ty in C.FLOAT_TYPES:
        view, width = (np.float32, np.uint32) if ty == "f32" else (np.float64, np.uint64)
        same |= np.isnan(gpu.astype(width).view(view)) & np.isnan(sim.astype(width).view(view))
    bad = np.flatnonzero(~same)
    arms = C.arms_of(ty)
    assert bad.size == 0, (f"{bad.size} of {n} differ; first `{arms[bad[0] % m]}` on "
                           f"a={int(a[bad[0] // m]):#x} b={int(b[bad[0] // m]):#x}: "
                           f"gpu {int(gpu[bad[0]]):#x}, sim {int(sim[bad[0]]):#x}")
