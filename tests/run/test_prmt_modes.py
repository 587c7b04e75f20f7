"""`prmt::prmt_{b4e,f4e,ecl,ecr,rc8,rc16}` (issue 11): the byte-permute modes on the simulator
against the PTX ISA's tables written out here byte by byte, through ptxas for sm_80 and
sm_90, and on the GPU against the simulator; plus `debug::breakpoint` and
`barrier::fence_proxy_async_shared_cta` in the PTX."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.sim import SimTrap

SRC = """
use cuda_device::prmt;
#[kernel]
pub fn modes(a: &[u32], b: &[u32], s: &[u32], out: *mut u32) {
    let i = thread::index_1d().get();
    if i < a.len() {
        let r = [
            prmt::prmt_f4e(a[i], b[i], s[i]), prmt::prmt_b4e(a[i], b[i], s[i]),
            prmt::prmt_rc8(a[i], s[i]), prmt::prmt_ecl(a[i], s[i]),
            prmt::prmt_ecr(a[i], s[i]), prmt::prmt_rc16(a[i], s[i]),
        ];
        unsafe {
            let mut k = 0;
            while k < 6 {
                *out.add(i * 6 + k) = r[k];
                k += 1;
            }
        }
    }
}
"""

# The PTX ISA's tables: for selector 0..3, the source byte of d.b3, d.b2, d.b1, d.b0.
TABLES = {
    "f4e": ((3, 2, 1, 0), (4, 3, 2, 1), (5, 4, 3, 2), (6, 5, 4, 3)),
    "b4e": ((5, 6, 7, 0), (6, 7, 0, 1), (7, 0, 1, 2), (0, 1, 2, 3)),
    "rc8": ((0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)),
    "ecl": ((3, 2, 1, 0), (3, 2, 1, 1), (3, 2, 2, 2), (3, 3, 3, 3)),
    "ecr": ((0, 0, 0, 0), (1, 1, 1, 0), (2, 2, 1, 0), (3, 2, 1, 0)),
    "rc16": ((1, 0, 1, 0), (3, 2, 3, 2), (1, 0, 1, 0), (3, 2, 3, 2)),
}
ORDER = ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16")


def reference(a, b, s):
    out = np.zeros((a.size, 6), np.uint32)
    for i in range(a.size):
        src = int(a[i]) | int(b[i]) << 32
        for j, mode in enumerate(ORDER):
            if mode in ("rc8", "ecl", "ecr", "rc16"):
                src = int(a[i])  # the one-source modes: b is 0
            pick = TABLES[mode][int(s[i]) & 3]
            word = 0
            for pos, byte in zip((3, 2, 1, 0), pick):
                word |= ((src >> (8 * byte)) & 0xFF) << (8 * pos)
            out[i, j] = word
    return out


def run(m, device, a, b, s):
    out = np.full(a.size * 6, 0xDEADBEEF, np.uint32)
    m.modes[((a.size + 63) // 64,), (64,)](a, b, s, out, device=device)
    return out.reshape(a.size, 6)


def inputs(rng, n):
    return (rng.integers(0, 2**32, n, dtype=np.uint32), rng.integers(0, 2**32, n, dtype=np.uint32),
            rng.integers(0, 2**32, n, dtype=np.uint32))


def test_prmt_modes_on_the_simulator(rng):
    a, b, s = inputs(rng, 200)
    np.testing.assert_array_equal(run(compile_source(SRC, "p.rs"), "sim", a, b, s),
                                  reference(a, b, s))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_prmt_modes_assemble(arch, assemble):
    ptx = compile_source(SRC, "p.rs", arch=arch).ptx
    for mode in ORDER:
        assert f"prmt.b32.{mode}" in ptx, mode
    assemble(ptx, arch)


@pytest.mark.gpu
def test_prmt_modes_on_gpu(rng):
    a, b, s = inputs(rng, 5000)
    m = compile_source(SRC, "p.rs")
    np.testing.assert_array_equal(run(m, "gpu", a, b, s), reference(a, b, s))


FENCES = """
#[kernel]
pub fn fenced(x: &mut [u32]) {
    let i = thread::index_1d().get();
    if i < x.len() {
        x[i] = x[i] * 3 + 1;
        unsafe { barrier::fence_proxy_async_shared_cta(); }
        debug::breakpoint();
    }
}
"""


def test_proxy_fence_and_breakpoint(ptxas, tmp_path, rng):
    src = FENCES.replace("pub fn", "pub unsafe fn")
    m = compile_source(src, "f.rs", arch="sm_90")
    assert "fence.proxy.async.shared::cta;" in m.ptx and "brkpt;" in m.ptx
    path = tmp_path / "k.ptx"
    path.write_text(m.ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    x = rng.integers(0, 1000, 77, dtype=np.uint32)
    with pytest.raises(SimTrap, match="breakpoint"):  # no debugger: a trap, as on the GPU
        m.fenced[(2,), (64,)](x, device="sim")
    m = compile_source(src.replace("debug::breakpoint();", ""), "f.rs", arch="sm_90")
    want = x * 3 + 1
    m.fenced[(2,), (64,)](x, device="sim")  # the fence alone: a no-op on the simulator
    np.testing.assert_array_equal(x, want)


@pytest.mark.gpu
def test_proxy_fence_and_breakpoint_on_gpu(rng):
    """The fence runs through; `brkpt` with no debugger attached ends the kernel with a launch
    failure (which poisons the CUDA context, hence the child process)."""
    src = FENCES.replace("pub fn", "pub unsafe fn")
    m = compile_source(src.replace("debug::breakpoint();", ""), "f.rs", arch="sm_90")
    x = rng.integers(0, 1000, 300, dtype=np.uint32)
    want = x * 3 + 1
    m.fenced[(5,), (64,)](x, device="gpu")
    np.testing.assert_array_equal(x, want)
    code = f"""
import numpy as np
from oxidec.api import compile_source
from oxidec.runtime.errors import CudaError
m = compile_source({src!r}, "f.rs", arch="sm_90")
try:
    m.fenced[(1,), (32,)](np.arange(32, dtype=np.uint32), device="gpu")
    print("RAN THROUGH")
except CudaError as e:
    print("CUDAERROR", e)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert "CUDAERROR" in proc.stdout, proc.stdout + proc.stderr


def test_proxy_fence_needs_sm_90():
    from oxidec.diagnostics import CompileError
    with pytest.raises(CompileError) as err:
        compile_source(FENCES.replace("pub fn", "pub unsafe fn"), "f.rs", arch="sm_80")
    assert "OX0013" in str([d.code for d in err.value.diagnostics])
