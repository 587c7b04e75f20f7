"""`.xorsign.abs` min/max (issue 11, sm_86+): `float::{max,min}[_ftz][_nan]_xorsign_abs_f32`,
the `f16`/`bf16` scalar ones on u16 bits and the `f16x2`/`bf16x2` packed ones: the max or
min of the magnitudes, with the XOR of the operands' signs (a NaN result: the canonical
NaN). On the simulator against a reference written from the PTX ISA's pseudo-code, through
ptxas for sm_90, and on the GPU."""
from __future__ import annotations

import math
import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.device_api.packed import XORSIGN
from oxidec.device_api.rounding import NAMES
from oxidec.diagnostics import CompileError, render_all

F32 = [n for n in NAMES if "xorsign" in n]
HALF = [(mod, fn) for (mod, fn) in XORSIGN if not mod.endswith("x2")]
PAIR = [(mod, fn) for (mod, fn) in XORSIGN if mod.endswith("x2")]
CALLS = ([f"float::{n}(a[i], b[i]).to_bits()" for n in F32]
         + [f"{m}::{f}(h[i], g[i]) as u32" for m, f in HALF]
         + [f"{m}::{f}(p[i], q[i])" for m, f in PAIR])
SRC = f"""
use cuda_device::{{bf16, bf16x2, f16, f16x2, float, kernel, thread}};

#[kernel]
pub unsafe fn xs(a: &[f32], b: &[f32], h: &[u16], g: &[u16], p: &[u32], q: &[u32], out: *mut u32) {{
    let i = thread::index_1d().get();
    if i < a.len() {{
        let r = [{", ".join(CALLS)}];
        let mut k = 0;
        while k < {len(CALLS)} {{
            *out.add(i * {len(CALLS)} + k) = r[k];
            k += 1;
        }}
    }}
}}
"""
TINY = {"f32": 2.0 ** -126, "f16": 2.0 ** -14, "bf16": 2.0 ** -126}


def decode(bits: int, fmt: str) -> float:
    if fmt == "f32":
        return float(np.array([bits], np.uint32).view(np.float32)[0])
    if fmt == "f16":
        return float(np.array([bits], np.uint16).view(np.float16)[0])
    return float(np.array([bits << 16], np.uint32).view(np.float32)[0])


def encode(v: float, fmt: str) -> int:
    if math.isnan(v):
        return 0x7FFFFFFF if fmt == "f32" else 0x7FFF
    if fmt == "f32":
        return int(np.array([v], np.float32).view(np.uint32)[0])
    if fmt == "f16":
        return int(np.array([v], np.float16).view(np.uint16)[0])
    return int(np.array([v], np.float32).view(np.uint32)[0]) >> 16  # exact bf16 values


def ref(name: str, x: int, y: int, fmt: str) -> int:
    kind = name.split("_")[0]
    ftz, nan = "_ftz" in name, "_nan" in name
    a, b = decode(x, fmt), decode(y, fmt)
    sign = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)  # the NaNs' sign bits too
    flush = (lambda v: math.copysign(0.0, v) if abs(v) < TINY[fmt] else v) if ftz \
        else (lambda v: v)
    a, b = abs(flush(a)), abs(flush(b))
    if (math.isnan(a) and math.isnan(b)) or (nan and (math.isnan(a) or math.isnan(b))):
        return encode(math.nan, fmt)
    r = b if math.isnan(a) else a if math.isnan(b) else (max if kind == "max" else min)(a, b)
    r = flush(-r if sign else r)
    return encode(r, fmt)


def bits(rng, n, fmt):
    width = 32 if fmt == "f32" else 16
    raw = rng.integers(0, 1 << width, n, dtype=np.uint64)
    special = {"f32": [0x7FC00000, 0xFFC01234, 0x00000000, 0x80000000, 0x00000005, 0x80400000,
                       0x7F800000, 0xFF800000],
               "f16": [0x7E00, 0xFE01, 0x0000, 0x8000, 0x0003, 0x8200, 0x7C00, 0xFC00],
               "bf16": [0x7FC0, 0xFFC1, 0x0000, 0x8000, 0x0003, 0x8040, 0x7F80, 0xFF80]}[fmt]
    raw[:len(special)] = special
    raw[len(special):2 * len(special)] = special[::-1]
    return raw


def run(device, rng, n=128):
    a, b = bits(rng, n, "f32"), rng.permutation(bits(rng, n, "f32"))
    h, g = bits(rng, n, "f16"), rng.permutation(bits(rng, n, "f16"))
    hb, gb = bits(rng, n, "bf16"), rng.permutation(bits(rng, n, "bf16"))
    p = (h | (hb << 16)).astype(np.uint32)  # f16x2 gets (h, hb) and bf16x2 the same bits
    q = (g | (gb << 16)).astype(np.uint32)
    out = np.full(n * len(CALLS), 0xDEAD_BEEF, np.uint32)
    args = (a.astype(np.uint32).view(np.float32), b.astype(np.uint32).view(np.float32),
            h.astype(np.uint16), g.astype(np.uint16), p, q)
    compile_source(SRC, "xs.rs", arch="sm_90").xs[((n + 63) // 64,), (64,)](*args, out,
                                                                           device=device)
    want = []
    for i in range(n):
        row = [ref(f, int(a[i]), int(b[i]), "f32") for f in F32]
        row += [ref(f, int(h[i]), int(g[i]), m) for m, f in HALF]
        for m, f in PAIR:
            fmt = m[:-2]
            lo = ref(f, int(p[i]) & 0xFFFF, int(q[i]) & 0xFFFF, fmt)
            hi = ref(f, int(p[i]) >> 16, int(q[i]) >> 16, fmt)
            row.append(lo | hi << 16)
        want.append(row)
    return out.reshape(n, len(CALLS)), np.array(want, np.uint32)


def check(got, want):
    bad = np.argwhere(got != want)
    assert bad.size == 0, f"{len(bad)} differ; first (row, fn): {bad[:5].tolist()} " \
        f"{[CALLS[j].split('(')[0] for _, j in bad[:3]]} " \
        f"got {[hex(int(got[tuple(x)])) for x in bad[:5]]} " \
        f"want {[hex(int(want[tuple(x)])) for x in bad[:5]]}"


def test_xorsign_on_the_simulator(rng):
    check(*run("sim", rng))


def test_xorsign_assembles_and_needs_sm_86(ptxas, tmp_path):
    try:
        ptx = driver.compile_source(SRC, "xs.rs", driver.Options(arch="sm_90")).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    path = tmp_path / "x.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "x.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with pytest.raises(CompileError) as err:
        driver.compile_source(SRC, "xs.rs", driver.Options(arch="sm_80"))
    assert "OX0013" in render_all(err.value.diagnostics)


@pytest.mark.gpu
def test_xorsign_on_gpu(rng):
    check(*run("gpu", rng, n=512))
