"""rustc as the reference for structs, methods, modules, tuples and the other item-level
constructs: each tests/oracle/items/NAME.rs defines `fn compute(x: f32, i: usize) -> f32` (and
whatever items it needs) in plain Rust. The same text is

  - compiled by rustc with a host `main` that applies `compute` to the inputs, and
  - compiled by oxidec with a kernel that applies it per thread, run on the simulator,

and the two must agree bit for bit (oxidec without fma contraction, as rustc never fuses).
The host `main` is in the file oxidec compiles too: it is host code no kernel reaches, so
oxidec must skip it.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

HERE = Path(__file__).resolve().parent / "items"
CASES = sorted(HERE.glob("*.rs"))

HOST_MAIN = """
fn main() {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).unwrap();
    let xs: Vec<f32> = text.split_whitespace().map(|t| f32::from_bits(t.parse().unwrap())).collect();
    for (i, x) in xs.iter().enumerate() {
        println!("{}", compute(*x, i).to_bits());
    }
}
"""

KERNEL = """
#[kernel]
pub fn oracle_kernel(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = compute(x[i], i);
    }
}
"""


def rustc_outputs(src: str, xs: np.ndarray, tmp: Path) -> np.ndarray:
    rs = tmp / "prog.rs"
    rs.write_text("#![allow(unused, dead_code)]\n" + src + HOST_MAIN)
    exe = tmp / "prog"
    proc = subprocess.run(["rustc", "--edition", "2021", "-O", "-C", "overflow-checks=off",
                           "-o", str(exe), str(rs)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], input=" ".join(str(int(b)) for b in xs.view(np.uint32)),
                         capture_output=True, text=True, check=True)
    return np.array([int(t) for t in run.stdout.split()], np.uint32)


def oxidec_outputs(src: str, xs: np.ndarray, name: str) -> np.ndarray:
    from oxidec.sim import run_kernel
    text = "use cuda_device::{kernel, thread, DisjointSlice};\n" + src + KERNEL + HOST_MAIN
    try:
        comp = driver.compile_source(text, f"tests/oracle/items/{name}.rs",
                                     driver.Options(fmad=False))
    except CompileError as err:
        pytest.fail(render_all(err.diagnostics))
    assert comp.ptx  # and ptxas-clean PTX is the build tests' concern
    out = np.full(len(xs), np.nan, np.float32)
    n = len(xs)
    run_kernel(comp.program, "oracle_kernel", ((n + 63) // 64, 1, 1), (64, 1, 1), [xs, out])
    return out.view(np.uint32)


@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_matches_rustc(case: Path, rng, tmp_path: Path) -> None:
    src = case.read_text()
    xs = rng.uniform(-4.0, 4.0, size=int(rng.integers(70, 130))).astype(np.float32)
    expected = rustc_outputs(src, xs, tmp_path)
    actual = oxidec_outputs(src, xs, case.stem)
    bad = np.nonzero(expected != actual)[0]
    assert not len(bad), (f"{len(bad)} of {len(xs)} differ; first at i={bad[0]}: x={xs[bad[0]]!r} "
                          f"rustc={expected[bad[0]:bad[0] + 1].view(np.float32)[0]!r} "
                          f"oxidec={actual[bad[0]:bad[0] + 1].view(np.float32)[0]!r}")
