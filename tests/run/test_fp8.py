"""fp8 conversions (issue 11, sm_89+): f32 pairs and f16x2 to e4m3x2 / e5m2x2 (round to
nearest even, satfinite, relu) and back to f16x2 (exact). On the simulator against a
reference that decodes every fp8 code by its own formula and picks the nearest code by
search (ties to the even code), through ptxas for sm_90, and on the GPU."""
from __future__ import annotations

import math
import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.device_api.fp8 import CONVERSIONS
from oxidec.diagnostics import CompileError, render_all

F32_FNS = [n for n, (_, src) in CONVERSIONS.items() if src == "f32"]
TF32_FNS = [n for n, (_, src) in CONVERSIONS.items() if src == "tf32"]
F16_FNS = [n for n, (_, src) in CONVERSIONS.items() if src == "f16x2"]
UP_FNS = [n for n, (_, src) in CONVERSIONS.items() if src == "fp8x2"]

SRC = f"""
use cuda_device::convert::*;
use cuda_device::{{kernel, thread}};

#[kernel]
pub unsafe fn fp8(lo: &[f32], hi: &[f32], h: &[u32], p: &[u16], out: *mut u32) {{
    let i = thread::index_1d().get();
    if i < lo.len() {{
        let r = [{", ".join(f"{n}(lo[i], hi[i]) as u32" for n in F32_FNS)},
                 {", ".join(f"{n}(h[i]) as u32" for n in F16_FNS)},
                 {", ".join(f"{n}(p[i])" for n in UP_FNS)}];
        let mut k = 0;
        while k < {len(CONVERSIONS) - len(TF32_FNS)} {{
            *out.add(i * {len(CONVERSIONS) - len(TF32_FNS)} + k) = r[k];
            k += 1;
        }}
    }}
}}
"""


def value(code: int, fmt: str) -> float:
    s = -1.0 if code & 0x80 else 1.0
    if fmt == "e4m3":
        e, m = (code >> 3) & 15, code & 7
        if e == 15 and m == 7:
            return math.nan
        return s * ((m / 8) * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))
    e, m = (code >> 2) & 31, code & 3
    if e == 31:
        return s * math.inf if m == 0 else math.nan
    return s * ((m / 4) * 2.0 ** -14 if e == 0 else (1 + m / 4) * 2.0 ** (e - 15))


TABLE = {f: [(value(c, f), c) for c in range(0x80) if math.isfinite(value(c, f))]
         for f in ("e4m3", "e5m2")}


def narrow(x: float, fmt: str, relu: bool) -> int:
    if math.isnan(x):
        return 0x7F
    top = TABLE[fmt][-1][0]
    a = min(abs(x), top)  # satfinite
    best = min(TABLE[fmt], key=lambda vc: (abs(vc[0] - a), vc[1] & 1))[1]
    negative = math.copysign(1, x) < 0
    if relu and negative:  # relu: every input with the sign bit set (-0 too) gives +0
        return 0
    return best | (0x80 if negative else 0)


def widen(code: int, fmt: str, relu: bool) -> int:
    v = value(code, fmt)
    if math.isnan(v):
        return 0x7FFF
    if relu and math.copysign(1, v) < 0:
        v = 0.0
    return int(np.array([v], np.float16).view(np.uint16)[0])


def f16_value(bits: int) -> float:
    return float(np.array([bits], np.uint16).view(np.float16)[0])


def expected(lo, hi, h, p):
    rows = []
    for i in range(lo.size):
        row = []
        for name in F32_FNS:
            fmt, relu = name.split("_")[-2][:4], "relu" in name
            row.append(narrow(float(lo[i]), fmt, relu) | narrow(float(hi[i]), fmt, relu) << 8)
        for name in F16_FNS:
            fmt, relu = name.split("_")[-2][:4], "relu" in name
            a, b = f16_value(int(h[i]) & 0xFFFF), f16_value(int(h[i]) >> 16)
            row.append(narrow(a, fmt, relu) | narrow(b, fmt, relu) << 8)
        for name in UP_FNS:
            fmt, relu = name.split("_")[-1][:4], "relu" in name
            row.append(widen(int(p[i]) & 0xFF, fmt, relu) | widen(int(p[i]) >> 8, fmt, relu) << 16)
        rows.append(row)
    return np.array(rows, np.uint32)


def inputs(rng, k):
    mag = np.exp2(rng.uniform(-20, 18, 2 * k)) * rng.choice([-1.0, 1.0], 2 * k)
    lo, hi = mag[:k].astype(np.float32), mag[k:].astype(np.float32)
    # exact midpoints between neighbouring codes (ties to even), and specials
    e4 = [v for v, _ in TABLE["e4m3"]]
    mids = [(a + b) / 2 for a, b in zip(e4, e4[1:])]
    lo[:len(mids)] = mids[:k]
    e5 = [v for v, _ in TABLE["e5m2"]]
    hi[:len(e5) - 1] = [(a + b) / 2 for a, b in zip(e5, e5[1:])][:k]
    lo[-6:] = [np.nan, np.inf, -np.inf, 1e9, -500.0, -0.0]
    h = (rng.integers(0, 1 << 16, k, dtype=np.uint32)
         | (rng.integers(0, 1 << 16, k, dtype=np.uint32) << 16))
    p = rng.integers(0, 1 << 16, k, dtype=np.uint16)
    p[:256] = np.arange(256, dtype=np.uint16) * 257 if k >= 256 else p[:256]
    return lo, hi, h, p


def run(device, rng, k=320):
    lo, hi, h, p = inputs(rng, k)
    width = len(CONVERSIONS) - len(TF32_FNS)
    out = np.full(k * width, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "fp8.rs", arch="sm_90").fp8[((k + 63) // 64,), (64,)](
        lo, hi, h, p, out, device=device)
    return out.reshape(k, width), expected(lo, hi, h, p)


def test_fp8_conversions_on_the_simulator(rng):
    got, want = run("sim", rng)
    bad = np.argwhere(got != want)
    assert bad.size == 0, f"{len(bad)} differ, first (row, fn): {bad[:5].tolist()} " \
        f"got {[hex(int(got[tuple(b)])) for b in bad[:5]]} want " \
        f"{[hex(int(want[tuple(b)])) for b in bad[:5]]}"


def test_fp8_needs_sm_89():
    with pytest.raises(CompileError) as err:
        driver.compile_source(SRC, "fp8.rs", driver.Options(arch="sm_80"))
    assert "OX0013" in render_all(err.value.diagnostics)


def test_fp8_assembles(ptxas, tmp_path):
    try:
        ptx = driver.compile_source(SRC, "fp8.rs", driver.Options(arch="sm_90")).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    for name, src in CONVERSIONS.values():
        assert name in ptx or src == "tf32", name
    path = tmp_path / "f.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "f.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_fp8_conversions_on_gpu(rng):
    got, want = run("gpu", rng, k=640)
    bad = np.argwhere(got != want)
    assert bad.size == 0, f"{len(bad)} differ, first (row, fn): {bad[:5].tolist()} " \
        f"got {[hex(int(got[tuple(b)])) for b in bad[:5]]} want " \
        f"{[hex(int(want[tuple(b)])) for b in bad[:5]]}"


# -- tf32 ---------------------------------------------------------------------------------

TF32_SRC = f"""
use cuda_device::convert::*;
use cuda_device::{{kernel, thread}};

#[kernel]
pub unsafe fn tf32(x: &[f32], out: *mut u32) {{
    let i = thread::index_1d().get();
    if i < x.len() {{
        let r = [{", ".join(f"{n}(x[i])" for n in TF32_FNS)}];
        let mut k = 0;
        while k < {len(TF32_FNS)} {{
            *out.add(i * {len(TF32_FNS)} + k) = r[k];
            k += 1;
        }}
    }}
}}
"""
TF32_MAX = 0x7F7FE000


TF32_NAN = 0x7FFFE000  # rn / rz (F2FP.TF32): any NaN, the canonical NaN's top 19 bits


def tf32_nan_ref(bits: int, name: str) -> int:
    """A NaN input (by its bits) as the H200 converts it: rn / rz give TF32_NAN; rna is
    integer arithmetic that leaves inf and NaN unrounded and clears the low 13 bits (a NaN
    whose payload is only there becomes an infinity), and its satfinite form then takes an
    all-ones exponent one tf32 ulp down."""
    if "rna" not in name:
        return TF32_NAN
    out = bits & 0xFFFFE000
    if "satfinite" in name and out & 0x7F800000 == 0x7F800000:
        out -= 0x2000
    return out


def tf32_ref(x: float, name: str, bits: int | None = None) -> int:
    """By the value: the tf32 neighbours of x (multiples of its ulp at 10 significand bits)."""
    if math.isnan(x):
        return tf32_nan_ref(bits if bits is not None else 0x7FC00000, name)
    neg = math.copysign(1, x) < 0
    if "relu" in name and neg:
        return 0
    sat = "satfinite" in name
    if math.isinf(x):
        mag = TF32_MAX if sat else 0x7F800000
    else:
        from fractions import Fraction
        a = Fraction(abs(x))
        if a == 0:
            mag = 0
        else:
            e = max(math.frexp(abs(x))[1] - 1, -126)
            q = a / Fraction(2) ** (e - 10)
            n, rem = divmod(q.numerator, q.denominator)
            half = Fraction(rem, q.denominator)
            if "rna" in name:
                n += half >= Fraction(1, 2)
            elif "_rn_" in name:
                n += half > Fraction(1, 2) or (half == Fraction(1, 2) and n % 2 == 1)
            v = n * Fraction(2) ** (e - 10)
            big = float(v) > float(np.finfo(np.float32).max) if v else False
            if big:
                mag = TF32_MAX if sat else 0x7F800000
            else:
                mag = int(np.array([float(v)], np.float32).view(np.uint32)[0])
    return (0x80000000 if neg else 0) | mag


# NaNs: negative, payload only in the low 13 bits (rna: inf), payload bit 12 (rna's +0x1000
# must not apply), signalling; the smallest denormal, a denormal tie, the largest denormal
TF32_SPECIAL = [0xFFC00000, 0x7F800001, 0x7F801000, 0xFFA00000, 0x00000001, 0x80001000,
                0x007FFFFF, 0x80401000]


def run_tf32(device, rng, k=256):
    x = (np.exp2(rng.uniform(-130, 128, k)) * rng.choice([-1.0, 1.0], k)).astype(np.float32)
    bits = rng.integers(0, 1 << 13, 32, dtype=np.uint32)
    x[:32] = (np.array([0x3F800000] * 32, np.uint32) | (bits & 0x1FFF) |
              np.uint32(0x1000) * (np.arange(32) % 2 == 0)).view(np.float32)  # ties, near-ties
    x[32:36] = np.array([0x3F801000, 0x3F803000, 0xBF801000, 0x7F7FF000], np.uint32).view(
        np.float32)  # exact ties; the largest f32 rounding up
    x[-5:] = [np.nan, np.inf, -np.inf, -0.0, np.finfo(np.float32).max]
    x[36:44] = np.array(TF32_SPECIAL, np.uint32).view(np.float32)
    out = np.full(k * len(TF32_FNS), 0xDEAD_BEEF, np.uint32)
    compile_source(TF32_SRC, "tf32.rs", arch="sm_90").tf32[((k + 63) // 64,), (64,)](
        x, out, device=device)
    xb = x.view(np.uint32)
    want = np.array([[tf32_ref(float(v), n, int(b)) for n in TF32_FNS] for v, b in zip(x, xb)],
                    np.uint32)
    return out.reshape(k, len(TF32_FNS)), want


def test_tf32_conversions_on_the_simulator(rng):
    got, want = run_tf32("sim", rng)
    bad = np.argwhere(got != want)
    assert bad.size == 0, f"{bad[:5].tolist()} got {[hex(int(got[tuple(b)])) for b in bad[:5]]}" \
        f" want {[hex(int(want[tuple(b)])) for b in bad[:5]]}"


def test_tf32_assembles(ptxas, tmp_path):
    ptx = driver.compile_source(TF32_SRC, "tf32.rs", driver.Options(arch="sm_90")).ptx
    path = tmp_path / "t.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "t.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_tf32_conversions_on_gpu(rng):
    got, want = run_tf32("gpu", rng, k=512)
    bad = np.argwhere(got != want)
    # the special inputs' rows by function, to read the hardware's rule off a failure
    rows = {hex(b): {n: hex(int(got[36 + r, j])) for j, n in enumerate(TF32_FNS)}
            for r, b in enumerate(TF32_SPECIAL)}
    rows["0x7fc00000"] = {n: hex(int(got[-5, j])) for j, n in enumerate(TF32_FNS)}
    assert bad.size == 0, f"{bad[:5].tolist()} got {[hex(int(got[tuple(b)])) for b in bad[:5]]}" \
        f" want {[hex(int(want[tuple(b)])) for b in bad[:5]]}; special inputs give {rows}"
