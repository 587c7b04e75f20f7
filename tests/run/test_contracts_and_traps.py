"""Launch contracts are checked before launching, with the violated relation and its values;
an out-of-bounds access traps on the simulator (naming kernel, thread and line) and on the GPU
(naming the kernel)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec import api, driver
from oxidec.runtime.errors import LaunchError

KERNELS = Path(__file__).resolve().parent / "kernels"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def contract_module():
    return api.compile_file(KERNELS / "contract.rs")


def test_contract_block_is_reqntid(ptxas, tmp_path) -> None:
    ptx = driver.compile_file(KERNELS / "contract.rs").ptx
    assert ".reqntid 128, 1, 1" in ptx
    path = tmp_path / "c.ptx"
    path.write_text(ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "c.cubin")], check=True)


def test_contract_satisfied_runs(contract_module, rng) -> None:
    n = 1000
    a = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    contract_module.scale[(8, 1, 1), (128, 1, 1)](a, np.uint64(n), out, device="sim")
    np.testing.assert_array_equal(out, a * np.float32(2))


@pytest.mark.parametrize("grid, block, n_out, message", [
    ((8, 1, 1), (256, 1, 1), 1000,
     "`block = (128, 1, 1)` but the launch uses block (256, 1, 1)"),
    ((4, 1, 1), (128, 1, 1), 1000,
     "`domain = n` needs at least 1000 threads but the launch starts 512 (n = 1000)"),
    ((8, 1, 1), (128, 1, 1), 999,
     "`requires out.len() >= n` is false (out.len() = 999, n = 1000)"),
])
def test_contract_violation_names_relation_and_values(contract_module, grid, block, n_out,
                                                      message) -> None:
    a = np.ones(1000, np.float32)
    out = np.full(n_out, np.nan, np.float32)
    with pytest.raises(LaunchError) as err:
        contract_module.scale[grid, block](a, np.uint64(1000), out, device="sim")
    assert f"launch contract of `scale` violated: {message}" in str(err.value)
    assert np.isnan(out).all(), "nothing ran"


def test_out_of_bounds_traps_on_simulator() -> None:
    from oxidec.sim import SimTrap
    module = api.compile_file(KERNELS / "oob.rs")
    a = np.arange(300, dtype=np.float32)
    out = np.full(300, np.nan, np.float32)
    with pytest.raises(SimTrap) as err:
        module.shift_left[(2, 1, 1), (256, 1, 1)](a, out, device="sim")
    text = str(err.value)
    assert "kernel `shift_left` trapped: index out of bounds" in text
    assert "oob.rs:7:14" in text
    assert "thread (43,0,0) of block (1,0,0)" in text


@pytest.mark.gpu
def test_out_of_bounds_traps_on_gpu() -> None:
    # A device fault poisons the process's CUDA context, so the launch runs in a child.
    code = f"""
import numpy as np
from oxidec import api
from oxidec.runtime.errors import CudaError
m = api.compile_file({str(KERNELS / 'oob.rs')!r})
a = np.arange(300, dtype=np.float32); out = np.zeros(300, np.float32)
try:
    m.shift_left[(2, 1, 1), (256, 1, 1)](a, out, device="gpu")
except CudaError as e:
    print("CUDAERROR", e)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert "CUDAERROR" in proc.stdout, proc.stdout + proc.stderr
    assert "shift_left" in proc.stdout


@pytest.mark.parametrize("opt", [0, 1, 2])
def test_constant_out_of_bounds_compiles_and_traps(opt, ptxas, tmp_path, rng) -> None:
    """An index that folds to a constant past the end (through an inlined helper) is a
    trap at run time, not an internal error in the emitter (a fuzzer found it at -O1/-O2)."""
    from oxidec.sim import SimTrap
    ptx = driver.compile_file(KERNELS / "oob_const.rs", driver.Options(opt_level=opt)).ptx
    path = tmp_path / "c.ptx"
    path.write_text(ptx)
    for arch in ("sm_80", "sm_90"):
        subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "c.cubin")],
                       check=True)
    module = api.compile_file(KERNELS / "oob_const.rs", opt_level=opt)
    x = rng.standard_normal(4).astype(np.float32)
    out = np.full(32, np.nan, np.float32)
    with pytest.raises(SimTrap) as err:
        module.past_end[(1, 1, 1), (32, 1, 1)](x, out, device="sim")
    assert "index out of bounds" in str(err.value)
    assert np.isnan(out).all()
