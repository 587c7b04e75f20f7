"""Large generated inputs compile (correctness and no crash; speed is measured by
benchmarks/build_time.py --scaling, never asserted here): 200 kernels in one file (two of
them also run on the simulator against NumPy), a kernel of 1000 straight-line statements,
30 nested loops. The generators are the benchmark's own. ptxas assembles them at -O0: its
optimizer needs minutes for the long kernel, and the question here is only whether the PTX
is valid."""
from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.sim import run_kernel

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("build_time", ROOT / "benchmarks" /
                                                  "build_time.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("series,n,entries", [("kernels", 200, 200), ("statements", 1000, 1),
                                              ("loops", 30, 1)])
def test_generated_input_compiles(series: str, n: int, entries: int, ptxas: str,
                                  tmp_path: Path) -> None:
    gen = getattr(_bench(), f"gen_{series}")
    comp = driver.compile_source(gen(n), f"{series}_{n}.rs", driver.Options(arch="sm_90"))
    names = re.findall(r"^\.visible \.entry (\w+)\(", comp.ptx, re.M)
    assert len(names) == entries
    if series == "kernels":
        assert names == [f"k{k}" for k in range(n)]
        # each kernel keeps its own constant: weight{k} multiplies by k + 1
        for k in (0, n // 2, n - 1):
            assert re.search(rf"0f{_f32_hex(k + 1.0)}", comp.ptx, re.I), k
    if series == "statements":
        # every statement reads its own element: one global load per statement
        assert len(re.findall(r"ld\.global(\.nc)?\.f32", comp.ptx)) == n
    src = tmp_path / "k.ptx"
    src.write_text(comp.ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", "-O0", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module")
def kernels_200():
    gen = _bench().gen_kernels
    return driver.compile_source(gen(200), "kernels_200.rs", driver.Options(arch="sm_90"))


@pytest.mark.parametrize("k", [3, 187])
def test_generated_kernel_runs(kernels_200, k: int, rng) -> None:
    # Values that are small multiples of 1/4: every f32 sum and product below is exact, so
    # the comparison is exact whether or not the compiler contracts a multiply-add.
    length, n, block, grid = 300, 290, 128, 3
    a = (rng.integers(-40, 40, length) / 4).astype(np.float32)
    out = np.full(length, np.nan, np.float32)
    run_kernel(kernels_200.program, f"k{k}", (grid, 1, 1), (block, 1, 1),
               [a, out, np.uint64(n)])
    assert np.array_equal(out, _reference(a, n, k, block))


def _reference(a: np.ndarray, n: int, k: int, block: int) -> np.ndarray:
    """What kernel `k` of gen_kernels computes, one thread at a time, in f32."""
    f = np.float32
    out = np.empty(len(a), np.float32)
    for i in range(len(a)):
        acc = f(0)
        for j in range(4):
            if i + j < n:
                x = a[(i + j) % len(a)]
                acc = f(acc + (f(x * f(k + 1)) if j % 2 == 0 else f(x - f(0.5))))
        tx = i % block
        nb = i - tx + (tx + 1) % block
        right = a[nb] if nb < len(a) else f(0)
        m = acc
        for r in range(3):
            if right > m:
                m = f(right + f(r))
        out[i] = (f(acc + m), f(f(acc * f(2)) - m), f(acc - f(1)))[i % 3]
    return out


def _f32_hex(x: float) -> str:
    import struct
    return struct.pack(">f", x).hex().upper()


def test_instruction_counts_sum_every_process(monkeypatch) -> None:
    """`build_time.py --instructions` adds the counts of the build and of any worker it
    forks (valgrind prints one summary per process), and refuses a failed run."""
    bench = _bench()

    class Done:
        def __init__(self, code: int, err: str) -> None:
            self.returncode, self.stderr = code, err

    both = "==11== I   refs:      1,234,567\n==12== I   refs:      2,000,001\n"
    monkeypatch.setattr(bench.subprocess, "run", lambda *a, **k: Done(0, both))
    assert bench.count_instructions(["oxidec"]) == 3_234_568
    monkeypatch.setattr(bench.subprocess, "run", lambda *a, **k: Done(1, both))
    with pytest.raises(SystemExit):
        bench.count_instructions(["oxidec"])


def test_a_deeply_nested_type_is_finalized_once_per_level(monkeypatch) -> None:
    """typeck's `finalize` resolves each level of a type once as it walks it: a `deep` at
    every level made `[[[..[a]..]]]` N deep cost ~N^3/5 steps (333k at 120; a fuzzed
    1500-deep literal took minutes). Counted in steps, not timed: linear per type, so
    quadratic over the N nested expressions' types."""
    from oxidec.typeck import infer
    n = 120
    nested = "[" * n + "a" + "]" * n
    src = ("use cuda_device::{kernel, thread, DisjointSlice};\n#[kernel]\n"
           "pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {\n"
           "    let idx = thread::index_1d();\n    let a = x[idx.get()];\n"
           f"    let _n = {nested};\n"
           "    if let Some(o) = out.get_mut(idx) { *o = a; }\n}\n")
    steps = 0
    shallow = infer.InferMixin.shallow

    def counted(self, ty):
        nonlocal steps
        steps += 1
        return shallow(self, ty)

    monkeypatch.setattr(infer.InferMixin, "shallow", counted)
    comp = driver.compile_source(src, "nested.rs", driver.Options(arch="sm_90"))
    assert comp.ptx and steps < 2 * n * n, steps
