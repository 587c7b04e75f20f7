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


SLICE_KERNEL = HEADER + """
#[kernel]
pub fn slices(x: &[f32], w: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let a: f32 = x.iter().skip(i % 5).step_by(3).map(|v| v * 2.0).sum();
    let mut b = 0.0f32;
    for (p, q) in x.iter().zip(w).rev().take(i % 7) {
        b = b * 0.5 + p * q;
    }
    let c = x.iter().position(|v| *v > 0.9).map(|p| p as f32).unwrap_or(-1.0);
    let d = (0..x.len()).filter(|k| x[*k] < 0.0).count() as f32;
    if let Some(o) = out.get_mut(idx) {
        *o = a + b + c + d;
    }
}
"""


def test_slice_chains_on_the_simulator(rng) -> None:
    import numpy as np
    from oxidec.sim import run_kernel
    n, threads = int(rng.integers(40, 90)), 64
    x = rng.uniform(-1.0, 1.0, n).astype(np.float32)
    w = rng.uniform(-1.0, 1.0, n - int(rng.integers(1, 9))).astype(np.float32)
    out = np.full(threads, np.nan, np.float32)
    comp = driver.compile_source(SLICE_KERNEL, "t.rs", driver.Options(fmad=False))
    run_kernel(comp.program, "slices", (1, 1, 1), (threads, 1, 1), [x, w, out])
    want = np.empty(threads, np.float32)
    for i in range(threads):
        a = np.float32(-0.0)
        for v in x[i % 5::3]:
            a = np.float32(a + v * np.float32(2.0))
        b = np.float32(0.0)
        pairs = list(zip(x, w))[::-1][:i % 7]
        for p, q in pairs:
            b = np.float32(np.float32(b * np.float32(0.5)) + np.float32(p * q))
        big = np.flatnonzero(x > 0.9)
        c = np.float32(big[0]) if len(big) else np.float32(-1.0)
        d = np.float32(np.count_nonzero(x < 0.0))
        want[i] = np.float32(np.float32(np.float32(a + b) + c) + d)
    np.testing.assert_array_equal(out, want)


def test_iter_vs_index_benchmark_dry_run() -> None:
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import iter_vs_index
    assert iter_vs_index.main(["--dry-run"]) == 0


def _text_sections(cubin: bytes) -> dict[str, bytes]:
    """The `.text.<kernel>` sections of an ELF64 cubin (the SASS of each kernel)."""
    import struct
    shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    secs = [struct.unpack_from("<IIQQQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names_at = secs[shstrndx][4]

    def name(n: int) -> str:
        end = cubin.index(b"\0", names_at + n)
        return cubin[names_at + n:end].decode()
    return {name(s[0]): cubin[s[4]:s[4] + s[5]] for s in secs if name(s[0]).startswith(".text.")}


@pytest.mark.skipif(__import__("shutil").which("ptxas") is None, reason="needs ptxas")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_iter_reduce_sass_is_the_index_loops(arch: str, tmp_path: Path) -> None:
    """After ptxas, the iterator kernel and the index-loop kernel are the same machine code."""
    import subprocess
    src = (ROOT / "samples" / "iter_reduce.rs").read_text()
    ptx = driver.compile_source(src, "samples/iter_reduce.rs", driver.Options(arch=arch)).ptx
    (tmp_path / "k.ptx").write_text(ptx)
    subprocess.run(["ptxas", f"-arch={arch}", "-O3", str(tmp_path / "k.ptx"), "-o",
                    str(tmp_path / "k.cubin")], check=True, capture_output=True)
    text = _text_sections((tmp_path / "k.cubin").read_bytes())
    it, ix = text[".text.row_sums_iter"], text[".text.row_sums_index"]
    assert len(it) > 1000
    assert it == ix
