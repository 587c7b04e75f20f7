"""Iterator chains lower to plain loops: the PTX of an iterator loop is the PTX of the
hand-written index loop (the acceptance point "no per-element overhead"), and the MIR of a
chain is one loop with no reference left in it once the passes ran."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from oxidec import driver

ROOT = Path(__file__).resolve().parents[1]

HEADER = "use cuda_device::{kernel, thread, DisjointSlice};\n"
KERNEL = """
#[kernel]
pub fn weighted(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut acc = 0.0f32;
    LOOP
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}
"""
ITER = "for (i, v) in x.iter().enumerate() { acc += *v * i as f32; }"
INDEX = "for i in 0..x.len() { acc += x[i] * i as f32; }"


def ptx_of(src: str) -> str:
    return driver.compile_source(src, "t.rs").ptx


def instructions(ptx: str, entry: str, keep_moves: bool = True) -> list[str]:
    """The entry's instructions with register numbers, label names and line info erased."""
    body = ptx[ptx.index(f".entry {entry}("):]
    body = body[:body.index("\n}") + 2]
    out = []
    for line in body.splitlines():
        line = line.strip()
        if not line or line.startswith((".loc", ".reg", ".param", "//", "{", "}", ")")) \
                or line.endswith(":") or ".entry" in line:
            continue
        if not keep_moves and re.match(r"mov\.\w+\s+%\w+, (%[a-z]+\d+|0[fdx][0-9A-F]+);$", line):
            continue  # a register copy or a constant: ptxas folds it away
        line = re.sub(r"%[a-z]+\d+", "%r", line)
        line = re.sub(r"\$L__BB\d+_\w+", "L", line)
        out.append(re.sub(r"\w+_param_(\d+)", r"param_\1", line))
    return out


def test_enumerate_loop_is_the_index_loop() -> None:
    it = instructions(ptx_of(HEADER + KERNEL.replace("LOOP", ITER)), "weighted")
    ix = instructions(ptx_of(HEADER + KERNEL.replace("LOOP", INDEX)), "weighted")
    assert len(it) > 40  # a real loop, unrolled
    assert it == ix


def test_iter_reduce_sample_kernels_match() -> None:
    """samples/iter_reduce.rs: the iterator-and-closure kernel and the index-loop kernel
    execute the same instructions (up to register-to-register moves)."""
    src = (ROOT / "samples" / "iter_reduce.rs").read_text()
    ptx = driver.compile_source(src, "samples/iter_reduce.rs").ptx
    it = instructions(ptx, "row_sums_iter", keep_moves=False)
    ix = instructions(ptx, "row_sums_index", keep_moves=False)
    assert len(it) > 60
    assert sorted(it) == sorted(ix)
    loads = [i for i in it if i.startswith("ld.global")]
    assert len(loads) >= 8 and len(loads) == len([i for i in ix if i.startswith("ld.global")])


@pytest.mark.parametrize("chain", [
    "x.iter().enumerate().map(|(i, v)| *v * i as f32).sum()",
    "x.iter().zip(x.iter().skip(1)).map(|(a, b)| a * b).fold(0.0, |s, v| s + v)",
    "x.iter().rev().step_by(2).copied().filter(|v| *v > 0.0).sum()",
])
def test_chains_leave_no_reference(chain: str) -> None:
    src = HEADER + KERNEL.replace("LOOP", f"acc = {chain};")
    comp = driver.compile_source(src, "t.rs", driver.Options(), stop="mir-opt") \
        if "stop" in driver.compile_source.__code__.co_varnames else None
    ptx = ptx_of(src)
    body = ptx[ptx.index(".entry weighted("):]
    assert "local" not in body  # nothing spilled to local memory for a reference
    assert comp is None or "&" not in str(comp)


def test_local_array_chain_stays_in_registers() -> None:
    src = HEADER + KERNEL.replace("LOOP", """
        let a = [x[0], x[1] * 2.0, 3.0, -1.0];
        let mut w = [0.5f32; 4];
        for (p, q) in w.iter_mut().zip(a.iter().rev()) { *p = *p * *q; }
        acc = w.iter().filter(|v| **v > 0.0).map(|v| v * 2.0).sum();""")
    ptx = ptx_of(src)
    assert ".local" not in ptx and "ld.local" not in ptx
