"""Hardware limits (oxidec/ptx/limits.py) agree with ptxas: at each limit, the program
oxidec accepts assembles, and the program one step past it is an OX0012 diagnostic
(checked against ptxas on the same PTX with the check switched off). Large local arrays
are filled by a loop, not one store per element."""
from __future__ import annotations

import subprocess
import time

import numpy as np
import pytest

from oxidec import api, driver
from oxidec.diagnostics import CompileError, render_all


def params_source(n: int) -> str:
    params = ", ".join(f"p{i}: u64" for i in range(n))
    return f"""
#[kernel]
pub fn k({params}, mut out: DisjointSlice<u64>) {{
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) {{ *o = p0 + p{n - 1}; }}
}}
"""


def shared_source(n: int) -> str:
    return f"""
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {{
    static mut TILE: SharedArray<u32, {n}> = SharedArray::UNINIT;
    let t = thread::index_1d();
    let k = t.get();
    unsafe {{ TILE[k % {n}] = x[k]; }}
    thread::sync_threads();
    if let Some(o) = out.get_mut(t) {{ *o = unsafe {{ TILE[(k + 1) % {n}] }}; }}
}}
"""


def bounds_source(bounds: str) -> str:
    return f"""
#[kernel]
#[launch_bounds({bounds})]
pub fn k(mut out: DisjointSlice<u32>) {{
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) {{ *o = 1; }}
}}
"""


def oxidec_accepts(src: str, arch: str) -> bool:
    try:
        driver.compile_source(src, "k.rs", driver.Options(arch=arch))
        return True
    except CompileError as err:
        assert "OX0012" in render_all(err.diagnostics)
        return False


def ptxas_accepts(src: str, arch: str, ptxas, tmp_path, monkeypatch) -> bool:
    import oxidec.ptx as ptx_pkg
    from oxidec.lower import builder
    with monkeypatch.context() as m:  # the PTX oxidec would write without the checks
        m.setattr(ptx_pkg, "check_limits", lambda *a: None)
        m.setattr(builder, "check_launch_bounds", lambda *a: None)
        ptx = driver.compile_source(src, "k.rs", driver.Options(arch=arch)).ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    return result.returncode == 0


# 16 bytes of `out`, then 8 per u64: 542 params = 4352 bytes, 543 = 4360
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("src", [params_source(542), params_source(543), params_source(500 + 60),
                                 shared_source(12288), shared_source(12289),
                                 bounds_source("1, 1"), bounds_source("1024"),
                                 bounds_source("0, 0"), bounds_source("0")],
                         ids=["params-4352", "params-4360", "params-560", "shared-48K",
                              "shared-48K+4", "bounds-1", "bounds-1024", "bounds-0-0",
                              "bounds-0"])
def test_limit_matches_ptxas(src: str, arch: str, ptxas, tmp_path, monkeypatch) -> None:
    assert oxidec_accepts(src, arch) == ptxas_accepts(src, arch, ptxas, tmp_path, monkeypatch)


def test_five_hundred_parameters_is_a_diagnostic() -> None:
    with pytest.raises(CompileError) as err:
        driver.compile_source(params_source(600), "k.rs")
    text = render_all(err.value.diagnostics)
    assert "error[OX0012]: kernel `k` has more parameter data than a launch can pass " \
           "(4352 bytes)" in text
    assert "the parameters reach byte 4360 here" in text  # at p543, the first one past


def test_check_command_reports_limits() -> None:
    """`oxidec check` stops before the PTX, but still reports the limits."""
    with pytest.raises(CompileError) as err:
        driver.compile_source(shared_source(65535), "k.rs", driver.Options(stop="mir"))
    assert "OX0012" in render_all(err.value.diagnostics)


def test_large_local_array_is_a_loop(ptxas, tmp_path, rng) -> None:
    """`[0.0f32; 100000]` (400 KB, under the limit): a fill loop, a few KB of PTX, fast to
    build and assemble, and right on the simulator."""
    n = 100000
    src = f"""
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {{
    let t = thread::index_1d();
    let k = t.get();
    let mut a = [1.5f32; {n}];
    a[k % {n}] = x[k];
    if let Some(o) = out.get_mut(t) {{ *o = a[(k * 7) % {n}] + a[k % {n}]; }}
}}
"""
    start = time.perf_counter()
    ptx = driver.compile_source(src, "k.rs").ptx
    assert time.perf_counter() - start < 30
    assert len(ptx) < 20000
    assert ptx.count("st.local") < 10 and "$L__BB0_fill1:" in ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                   check=True, timeout=60)
    module = api.compile_source(src, "k.rs")
    x = rng.standard_normal(64).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    module.k[(1, 1, 1), (64, 1, 1)](x, out, device="sim")
    k = np.arange(64)
    want = np.where((k * 7) % n == k, x, np.float32(1.5)) + x
    np.testing.assert_array_equal(out, want)
