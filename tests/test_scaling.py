"""Large generated inputs compile (correctness and no crash; speed is measured by
benchmarks/build_time.py --scaling, never asserted here): 200 kernels in one file, a kernel
of 1000 straight-line statements, 30 nested loops. The generators are the benchmark's own."""
from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from oxidec import driver

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
        # each kernel keeps its own constant: kernel k multiplies by k + 1
        for k in (0, n // 2, n - 1):
            body = comp.ptx.split(f".entry k{k}(")[1].split(".entry")[0]
            assert re.search(rf"0f{_f32_hex(k + 1.0)}", body, re.I), k
    if series == "statements":
        # every statement reads its own element: one global load per statement
        assert len(re.findall(r"ld\.global(\.nc)?\.f32", comp.ptx)) == n
    src = tmp_path / "k.ptx"
    src.write_text(comp.ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr


def _f32_hex(x: float) -> str:
    import struct
    return struct.pack(">f", x).hex().upper()
