"""The PTX of every integer, float and char method (tests/oracle/num_cases.py) assembles with
ptxas for sm_80 and sm_90, and the bit intrinsics are the single instructions they promise."""
from __future__ import annotations

import subprocess

import pytest

import tests.oracle.num_cases as C
from oxidec import driver


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_num_methods_assemble(arch: str, ptxas, tmp_path) -> None:
    # one type of each kind: narrow, 32 and 64 bits, signed and unsigned, floats, char
    types = ("u8", "i16", "u32", "i64", "usize", "f32", "f64", "char")
    ptx = driver.compile_source(C.source(types), "num_methods.rs",
                                driver.Options(arch=arch)).ptx
    path = tmp_path / "num.ptx"
    path.write_text(ptx)
    result = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[:3000]
    for op in ("brev.b32", "brev.b64", "prmt.b32", "mul.hi.u64", "mul.hi.s64", "cvt.rni.f32",
               "cvt.rni.f64", "popc.b64", "clz.b32"):
        assert op in ptx, op
