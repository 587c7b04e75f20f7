"""`#[constant]` statics (`ConstantMemory<T>`, issue 11): `.const` variables the host writes
before a launch. On the simulator against NumPy (set from the Python API, unset = zero),
through ptxas for sm_80 and sm_90, from `oxidec run --const`, on the GPU (`gpu`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.host.constants import ConstantError

ROOT = Path(__file__).resolve().parents[2]

SRC = """
use cuda_device::{constant, kernel, thread, ConstantMemory, DisjointSlice};

#[constant]
static TABLE: ConstantMemory<[f32; 16]> = ConstantMemory::UNINIT;
#[constant]
static SHIFT: ConstantMemory<u32> = ConstantMemory::UNINIT;
#[constant]
static PAIR: ConstantMemory<(i32, f64)> = ConstantMemory::UNINIT;

#[kernel]
pub fn lookup(x: &[u32], mut out: DisjointSlice<f32>, mut side: DisjointSlice<f64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let t = TABLE.get_ref();
    let whole = TABLE.get();
    if let Some(o) = out.get_mut(idx) {
        let k = (x[i] >> SHIFT.get()) % 16;
        *o = t[k as usize] - whole[15 - k as usize];
    }
    let p = PAIR.get();
    if let Some(s) = side.get_mut(thread::index_1d()) {
        *s = (p.0 as f64) * 2.0 + p.1 + i as f64;  // exact product: fused or not alike
    }
}
"""


def expected(x, table, shift, pair):
    k = (x >> np.uint32(shift)) % 16
    out = table[k] - table[15 - k]
    side = (float(pair[0]) * 2.0 + pair[1]) + np.arange(x.size, dtype=np.float64)
    return out.astype(np.float32), side


def run(module, x, device):
    out = np.full(x.size, np.nan, np.float32)
    side = np.full(x.size, np.nan, np.float64)
    module.lookup[((x.size + 127) // 128,), (128,)](x, out, side, device=device)
    return out, side


def set_all(module, rng):
    table = rng.standard_normal(16).astype(np.float32)
    shift = int(rng.integers(0, 20))
    pair = (int(rng.integers(-50, 50)), float(rng.standard_normal()))
    module.set_constant("TABLE", table)
    module.set_constant("SHIFT", shift)
    raw = np.zeros(16, np.uint8)  # (i32, f64) in C layout: 4 bytes, 4 padding, 8
    raw[:4] = np.frombuffer(np.int32(pair[0]).tobytes(), np.uint8)
    raw[8:] = np.frombuffer(np.float64(pair[1]).tobytes(), np.uint8)
    module.set_constant("PAIR", raw)
    return table, shift, pair


def test_constant_memory_on_the_simulator(rng):
    module = compile_source(SRC, "const.rs")
    x = rng.integers(0, 2**32, int(rng.integers(200, 400)), dtype=np.uint32)
    out, side = run(module, x, "sim")  # never set: zero
    np.testing.assert_array_equal(out, np.zeros(x.size, np.float32))
    np.testing.assert_array_equal(side, np.arange(x.size, dtype=np.float64))
    values = set_all(module, rng)
    got = run(module, x, "sim")
    for g, w in zip(got, expected(x, *values)):
        np.testing.assert_array_equal(g, w)


def test_set_constant_checks_name_and_size():
    module = compile_source(SRC, "const.rs")
    with pytest.raises(ConstantError, match=r"`\[f32; 16\]` \(64 bytes\), but the value has 32"):
        module.set_constant("TABLE", np.zeros(8, np.float32))
    with pytest.raises(ConstantError, match="no `#\\[constant\\]` static named `TABEL`.*TABLE"):
        module.set_constant("TABEL", np.zeros(16, np.float32))
    with pytest.raises(ConstantError, match="not float64 values"):
        module.set_constant("SHIFT", 1.5)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_constant_memory_ptx(arch, assemble):
    ptx = compile_source(SRC, "const.rs", arch=arch).ptx
    assert ".const .align 4 .b8 TABLE[64];" in ptx and ".const .align 8 .b8 PAIR[16];" in ptx
    assert "ld.const.f32" in ptx and "ld.const.u32" in ptx and "ld.const.f64" in ptx
    assemble(ptx, arch)


def test_run_command_sets_constants(tmp_path):
    src = tmp_path / "k.rs"
    src.write_text(SRC)
    common = [sys.executable, "-m", "oxidec.cli", "run", str(src), "-k", "lookup", "--sim",
              "--arg", "x=arange:u32:5", "--arg", "out=zeros:f32:5", "--arg", "side=zeros:f64:5",
              "--save", str(tmp_path / "o.npz")]
    table = ",".join(str(v) for v in range(16))
    r = subprocess.run(common + ["--const", f"TABLE={table}", "--const", "SHIFT=1"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    saved = np.load(tmp_path / "o.npz")
    k = np.arange(5) >> 1
    np.testing.assert_array_equal(saved["out"], (k - (15 - k)).astype(np.float32))
    r = subprocess.run(common + ["--const", "TABLE=1,2"], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 2 and "(64 bytes), but the value has 8 bytes" in r.stderr


@pytest.mark.gpu
def test_constant_memory_on_gpu(rng):
    module = compile_source(SRC, "const.rs")
    x = rng.integers(0, 2**32, 1000, dtype=np.uint32)
    values = set_all(module, rng)
    got = run(module, x, "gpu")
    for g, w in zip(got, expected(x, *values)):
        np.testing.assert_array_equal(g, w)
    table = rng.standard_normal(16).astype(np.float32)  # a new value reaches the next launch
    module.set_constant("TABLE", table)
    got = run(module, x, "gpu")
    np.testing.assert_array_equal(got[0], expected(x, table, *values[1:])[0])
