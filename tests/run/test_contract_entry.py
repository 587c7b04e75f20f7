"""Memory safety without trusting the host: a kernel checks the launch-contract relations
that `check_elim` relies on at its own entry and traps (printing the relation) when one is
false, so a launch that bypasses oxidec's host API (raw driver API, C++, Rust) with a
too-short buffer traps instead of writing past the end."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.mir import syntax as M
from oxidec.mir.contract_entry import entry_checked
from oxidec.sim import SimTrap, run_kernel
from oxidec import types as T

ROOT = Path(__file__).resolve().parents[2]
MATMUL = ROOT / "samples" / "matmul_tiled.rs"
TILE = 32


@pytest.fixture(scope="module")
def matmul():
    return driver.compile_file(MATMUL)


def launch_sim(comp, a, b, c, n, printed):
    grid = ((n + TILE - 1) // TILE, (n + TILE - 1) // TILE, 1)
    run_kernel(comp.program, "matmul_tiled", grid, (TILE, TILE, 1), [a, b, c, np.uint64(n)],
               on_printf=lambda fmt, *rest: printed.append(comp.program.strings[fmt]))


def test_short_output_traps_at_entry_on_simulator(matmul, rng) -> None:
    # The host API would refuse this launch; the simulator's run_kernel does not check
    # contracts, as a raw driver launch does not.
    n = 40
    a = rng.standard_normal(n * n).astype(np.float32)
    b = rng.standard_normal(n * n).astype(np.float32)
    c = np.full(n * n - 7, np.nan, np.float32)
    printed: list[str] = []
    with pytest.raises(SimTrap) as err:
        launch_sim(matmul, a, b, c, n, printed)
    assert err.value.reason == "entered unreachable code"
    assert any("launch contract of `matmul_tiled` violated: `requires c.len() == n * n` is "
               "false" in p for p in printed), printed
    assert np.isnan(c).all(), "the kernel wrote before its entry check"


def test_wrapping_product_is_not_exact(matmul) -> None:
    # n * n = 2^64 wraps to 0 == len in u64; the entry check must still refuse it.
    n = 1 << 32
    empty = np.zeros(0, np.float32)
    printed: list[str] = []
    with pytest.raises(SimTrap):
        grid = (1, 1, 1)
        run_kernel(matmul.program, "matmul_tiled", grid, (TILE, TILE, 1),
                   [empty, empty, empty.copy(), np.uint64(n)],
                   on_printf=lambda fmt, *rest: printed.append(matmul.program.strings[fmt]))
    assert any("`requires a.len() == n * n` is false" in p for p in printed), printed


def test_satisfied_contract_runs(matmul, rng) -> None:
    n = 40
    a = rng.standard_normal(n * n).astype(np.float32)
    b = rng.standard_normal(n * n).astype(np.float32)
    c = np.full(n * n, np.nan, np.float32)
    launch_sim(matmul, a, b, c, n, [])
    want = a.reshape(n, n).astype(np.float64) @ b.reshape(n, n).astype(np.float64)
    np.testing.assert_allclose(c.reshape(n, n), want, rtol=1e-4, atol=1e-4)


def test_entry_check_is_in_the_ptx(matmul) -> None:
    # one check per relation, before the body: the PTX enforces what check_elim assumes
    ptx = matmul.ptx
    assert "launch contract of `matmul_tiled` violated" in "".join(matmul.program.strings)
    # the product's exactness test: in the 64-bit version (index32.py; the 32-bit one has it
    # settled by its own entry test of the lengths), and before the body of a lone version
    assert "cvt.rn.f64.s64" in ptx[ptx.index(".entry matmul_tiled"):]
    one = driver.compile_file(MATMUL, driver.Options(index32=False)).ptx
    body = one[one.index(".entry matmul_tiled"):]
    first_branch = body.index("bra")
    assert "cvt.rn.f64.s64" in body[:first_branch]


def test_relations_not_checked_in_the_kernel_are_not_used() -> None:
    # A float relation cannot be evaluated at entry: check_elim must not rely on it.
    locs = [M.LocalDecl(T.UNIT, None, True, None), M.LocalDecl(T.F32, "x", False, None),
            M.LocalDecl(T.USIZE, "n", False, None)]
    flt = M.ContractBinary("lt", M.ContractParam(1, "x"), M.ContractConst(1.5))
    ints = M.ContractBinary("eq", M.ContractLen(2, "s"),
                            M.ContractBinary("mul", M.ContractParam(2, "n"),
                                             M.ContractConst(3)))
    mod = M.ContractBinary("eq", M.ContractParam(2, "n"),
                           M.ContractBinary("rem", M.ContractParam(2, "n"), M.ContractConst(3)))
    assert not entry_checked(flt, locs)
    assert entry_checked(ints, locs)
    assert not entry_checked(mod, locs)


SRC_UNCHECKABLE = """
#[kernel]
#[launch_contract(requires = (out.len() == n * m, (n % 7) == 0))]
pub unsafe fn k(mut out: DisjointSlice<u32>, n: usize, m: usize) {
    let r = thread::blockIdx_x() as usize;
    let c = thread::threadIdx_x() as usize;
    if r < n && c < m {
        *out.get_unchecked_mut(r * m + c) = 1;
    }
}
"""


def test_every_relation_check_elim_may_use_has_an_entry_check() -> None:
    comp = driver.compile_source(SRC_UNCHECKABLE, "k.rs")
    fmts = "".join(comp.program.strings)
    assert "`requires out.len() == n * m` is false" in fmts
    assert "(n % 7) == 0" not in fmts  # `%` is not evaluated in the kernel (nor relied on)


CHILD = r"""
import ctypes, json, sys
import numpy as np
from cuda.bindings import driver as drv
from oxidec import driver as oxd

def ok(r):
    err = r[0] if isinstance(r, tuple) else r
    if err != drv.CUresult.CUDA_SUCCESS:
        raise RuntimeError(str(err))
    return r[1] if isinstance(r, tuple) and len(r) == 2 else r

short = int(sys.argv[1])
ptx = oxd.compile_file(sys.argv[2]).ptx
ok(drv.cuInit(0))
dev = ok(drv.cuDeviceGet(0))
ctx = ok(drv.cuDevicePrimaryCtxRetain(dev))
ok(drv.cuCtxSetCurrent(ctx))
mod = ok(drv.cuModuleLoadData(ptx.encode() + b"\0"))
fn = ok(drv.cuModuleGetFunction(mod, b"matmul_tiled"))
n, guard = 64, 4096
rng = np.random.default_rng(int(sys.argv[3]))
a = rng.standard_normal(n * n).astype(np.float32)
b = rng.standard_normal(n * n).astype(np.float32)
def dev_copy(x):
    p = ok(drv.cuMemAlloc(x.nbytes))
    ok(drv.cuMemcpyHtoD(p, x.ctypes.data, x.nbytes))
    return int(p)
pa, pb = dev_copy(a), dev_copy(b)
# c in mapped host memory: readable after a fault has poisoned the context
total = n * n + guard
hptr = ok(drv.cuMemHostAlloc(total * 4, drv.CU_MEMHOSTALLOC_DEVICEMAP))
host = np.ctypeslib.as_array((ctypes.c_float * total).from_address(int(hptr)))
host[:] = np.float32(-7.25)
pc = int(ok(drv.cuMemHostGetDevicePointer(hptr, 0)))
c_len = n * n - short
vals = [ctypes.c_uint64(pa), ctypes.c_uint64(n * n), ctypes.c_uint64(pb), ctypes.c_uint64(n * n),
        ctypes.c_uint64(pc), ctypes.c_uint64(c_len), ctypes.c_uint64(n)]
ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.addressof(v) for v in vals])
g = (n + 31) // 32
res = drv.cuLaunchKernel(fn, g, g, 1, 32, 32, 1, 0, 0, ctypes.addressof(ptrs), 0)
sync = drv.cuCtxSynchronize()
err = (res[0] if isinstance(res, tuple) else res)
if err == drv.CUresult.CUDA_SUCCESS:
    err = sync[0] if isinstance(sync, tuple) else sync
want = (a.reshape(n, n).astype(np.float64) @ b.reshape(n, n).astype(np.float64)).reshape(-1)
print(json.dumps({"error": str(err), "success": err == drv.CUresult.CUDA_SUCCESS,
                  "inside_untouched": bool((host[:c_len] == np.float32(-7.25)).all()),
                  "past_end_untouched": bool((host[c_len:] == np.float32(-7.25)).all()),
                  "correct": bool(np.allclose(host[:n * n], want, rtol=1e-4, atol=1e-4))}))
"""


def run_child(short: int, seed: int) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(short), str(MATMUL), str(seed)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, proc.stdout + proc.stderr
    result = json.loads(lines[-1])
    result["stdout"] = proc.stdout
    return result


@pytest.mark.gpu
def test_raw_driver_launch_with_short_output_traps_on_gpu(rng) -> None:
    # A trap poisons the CUDA context, so each launch runs in its own child process.
    good = run_child(0, int(rng.integers(1 << 30)))
    assert good["success"] and good["correct"] and good["past_end_untouched"], good
    bad = run_child(100, int(rng.integers(1 << 30)))
    assert not bad["success"], bad
    assert bad["past_end_untouched"] and bad["inside_untouched"], bad
    assert "launch contract of `matmul_tiled` violated" in bad["stdout"], bad
