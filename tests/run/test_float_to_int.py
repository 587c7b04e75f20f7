"""Float -> integer `as` casts: truncate toward zero, saturate at the bounds, NaN -> 0 (Rust),
for every (float, int) pair: in the simulator against an exact Python reference (and that
reference against rustc), in the PTX (the explicit NaN select where the hardware's `cvt.rzi`
gives MIN), and on the GPU bit for bit against the simulator."""
from __future__ import annotations

import math
import shutil
import subprocess

import numpy as np
import pytest

from oxidec import api, driver

FLOATS = {"f32": np.float32, "f64": np.float64}
INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "isize": np.int64,
        "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
        "usize": np.uint64}
PAIRS = [(f, i) for f in FLOATS for i in INTS]
N = 4096


def kernel_source() -> str:
    return "\n".join(f"""
#[kernel]
pub fn k_{f}_{i}(x: &[{f}], mut out: DisjointSlice<{i}>) {{
    let t = thread::index_1d();
    let k = t.get();
    if let Some(o) = out.get_mut(t) {{
        *o = x[k] as {i};
    }}
}}""" for f, i in PAIRS)


def rust_cast(x: float, ity) -> int:
    """The exact Rust result, in Python integers."""
    info = np.iinfo(ity)
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return int(info.max) if x > 0 else int(info.min)
    return max(int(info.min), min(int(info.max), math.trunc(x)))


def inputs(fdt, ity, rng) -> np.ndarray:
    info = np.iinfo(ity)
    edges = []
    for v in (float(info.min), float(info.max), float(info.max) + 1, float(info.min) - 1,
              0.5, -0.5, 0.99, -0.99, 1.0, -1.0):
        f = fdt(v)
        edges += [f, np.nextafter(f, fdt(np.inf)), np.nextafter(f, fdt(-np.inf))]
    fi = np.finfo(fdt)
    specials = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, fi.max, -fi.max,
                fi.smallest_subnormal, 1e30, -1e30, 2.0 ** 63, -2.0 ** 63, 2.0 ** 64]
    nan_payloads = (np.array([0x7FF0000000000001, 0xFFF8000000000123], np.uint64).view(np.float64)
                    if fdt == np.float64 else
                    np.array([0x7F800001, 0xFFC00123], np.uint32).view(np.float32))
    bits = 8 * np.dtype(fdt).itemsize
    ut = np.uint64 if bits == 64 else np.uint32
    random_bits = rng.integers(0, 2 ** bits, N // 4, dtype=np.uint64).astype(ut).view(fdt)
    span = max(abs(float(info.min)), float(info.max)) * 1.5
    in_range = rng.uniform(-span, span, N // 2)
    with np.errstate(all="ignore"):
        fixed = np.concatenate([np.array(edges + specials, dtype=fdt), nan_payloads,
                                random_bits, in_range.astype(fdt)])
    rest = (rng.standard_normal(N) * 300).astype(fdt)
    return np.concatenate([fixed, rest])[:N]


@pytest.fixture(scope="module")
def module():
    return api.compile_source(kernel_source(), "float_to_int.rs")


def run(module, f: str, i: str, x: np.ndarray, device: str) -> np.ndarray:
    ity = INTS[i]
    out = np.full(x.size, 0x5A, dtype=ity)  # poison
    module.kernel(f"k_{f}_{i}").launch(((x.size + 255) // 256, 1, 1), (256, 1, 1), x, out,
                                       device=device)
    return out


@pytest.mark.parametrize("f,i", PAIRS, ids=[f"{f}-{i}" for f, i in PAIRS])
def test_simulator_casts_as_rust(module, f: str, i: str, rng) -> None:
    x = inputs(FLOATS[f], INTS[i], rng)
    got = run(module, f, i, x, "sim")
    want = [rust_cast(float(v), INTS[i]) for v in x]
    bad = [k for k in range(x.size) if int(got[k]) != want[k]]
    assert not bad, f"{len(bad)} wrong, e.g. {x[bad[0]]!r} as {i} = {got[bad[0]]}, not {want[bad[0]]}"


def test_constant_casts_fold_as_rust() -> None:
    """The folder (`NAN as u8`, `-1e10 as i16`, ...) gives the same values."""
    from oxidec import types as T
    from oxidec.passes.consteval import float_to_int
    for name, ity in INTS.items():
        ty = getattr(T, name.upper())
        for v in (math.nan, math.inf, -math.inf, 1e30, -1e30, 3.9, -3.9, -0.0):
            assert float_to_int(v, ty) == rust_cast(v, ity), (v, name)


def test_reference_is_rustc(tmp_path) -> None:
    """The Python reference agrees with rustc on the edge values."""
    rustc = shutil.which("rustc")
    if rustc is None:
        pytest.skip("rustc not found")
    vals = ["f64::NAN", "-f64::NAN", "f64::INFINITY", "f64::NEG_INFINITY", "1e30", "-1e30",
            "255.9", "-128.9", "-129.0", "65535.5", "4294967296.0", "-2147483649.0",
            "9.3e18", "1.9e19", "-0.7"]
    lines = []
    for v in vals:
        for f in FLOATS:
            for i in INTS:
                lines.append(f'println!("{{}}", std::hint::black_box(({v}) as {f}) as {i});')
    src = tmp_path / "casts.rs"
    src.write_text("fn main() {\n" + "\n".join(lines) + "\n}\n")
    exe = tmp_path / "casts"
    subprocess.run([rustc, "-O", str(src), "-o", str(exe)], check=True, capture_output=True)
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    want = []
    for v in vals:
        x = float(eval(v.replace("f64::NAN", "float('nan')").replace(
            "f64::INFINITY", "float('inf')").replace("f64::NEG_INFINITY", "-float('inf')")))
        for f in FLOATS:
            xf = float(np.array(x).astype(FLOATS[f]))
            want += [str(rust_cast(xf, ity)) for ity in INTS.values()]
    assert got == want


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptx_selects_zero_for_nan(ptxas, tmp_path, arch: str) -> None:
    """Every cast the hardware gets wrong for NaN has the select; the module assembles."""
    ptx = driver.compile_source(kernel_source(), "float_to_int.rs",
                                driver.Options(arch=arch)).ptx
    for f, i in PAIRS:
        body = ptx.split(f".entry k_{f}_{i}(")[1].split(".entry")[0]
        wide = INTS[i]().itemsize == 8
        needs = f == "f64" or wide
        # the NaN test is `testp.notanumber` (ptx/instrs.py nan_test: never `setp.nan x, x`)
        assert ("testp.notanumber." + f in body) == needs, (f, i)
        assert "setp.nan." + f not in body
    path = tmp_path / "casts.ptx"
    path.write_text(ptx)
    subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "c.cubin")],
                   check=True)


@pytest.mark.gpu
@pytest.mark.parametrize("f,i", PAIRS, ids=[f"{f}-{i}" for f, i in PAIRS])
def test_gpu_casts_match_simulator(module, f: str, i: str, rng) -> None:
    x = inputs(FLOATS[f], INTS[i], rng)
    sim = run(module, f, i, x, "sim")
    gpu = run(module, f, i, x, "gpu")
    bad = np.flatnonzero(sim != gpu)
    assert bad.size == 0, f"{bad.size} differ, e.g. {x[bad[0]]!r}: gpu {gpu[bad[0]]}, sim {sim[bad[0]]}"
