"""`CuSimd<T, N>` (issue 11): `new` (T and N written or from the array), `v[i]`, `at`,
`get::<I>`, `to_array`, `len`, `is_empty`, `x`/`y`/`z`/`w`, `xy`, `xyzw`, `lo`/`hi`, the
aliases (`Float4`, `Uint2`, ..), as a device-function parameter, and the compile errors
(`get::<4>` of 4 values, `z()` of 2). On the simulator against NumPy, through ptxas, and on
the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::cusimd::{CuSimd, Float4, Uint2};
use cuda_device::{DisjointSlice, kernel, thread};

fn dot(a: Float4, b: CuSimd<f32, 4>) -> f32 {
    a.x() * b.x() + a.y() * b.y() + a.z() * b.z() + a.w() * b.w()
}

#[kernel]
pub fn simd(x: &[f32], u: &[u32], mut out: DisjointSlice<f32>, mut bits: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let k = i.get();
    let v = CuSimd::<f32, 4>::new([x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]]);
    let w: Float4 = CuSimd::new([1.0, -2.0, 0.5, 4.0]);
    let lo = v.lo();
    let hi = v.hi();
    let (a, b) = hi.xy();
    let (p, q, r, s) = v.xyzw();
    let arr = v.to_array();
    let j = k % 4;
    let f = dot(v, w) + v[j] * 3.0 + v.at(3 - j) * 5.0 + v.get::<2>() * 7.0 + lo.y() * 11.0
        + (a - b) * 13.0 + (p + q * r - s) * 17.0 + arr[j] * 19.0 + v.len() as f32;
    let m = Uint2::new([u[k], u[k] ^ 0xFFFF]);
    let t = m.x().wrapping_mul(3) ^ m.get::<1>() ^ ((m.is_empty() as u32) << 31);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = f;
    }
    if let Some(o) = bits.get_mut(i) {
        *o = t;
    }
}
"""


def expected(x, u):
    n = u.size
    v = x.reshape(n, 4).astype(np.float32)
    w = np.array([1.0, -2.0, 0.5, 4.0], np.float32)
    j = np.arange(n) % 4
    rows = np.arange(n)
    f32 = np.float32
    out = []
    for k in range(n):
        a = v[k]
        d = ((a[0] * w[0] + a[1] * w[1]) + a[2] * w[2]) + a[3] * w[3]
        terms = [d, a[j[k]] * f32(3), a[3 - j[k]] * f32(5), a[2] * f32(7), a[1] * f32(11),
                 (a[2] - a[3]) * f32(13), (a[0] + a[1] * a[2] - a[3]) * f32(17),
                 a[j[k]] * f32(19), f32(4)]
        out.append(terms)
    bits = ((u * np.uint32(3)) ^ (u ^ np.uint32(0xFFFF))).astype(np.uint32)
    return out, bits, rows


def run(device, rng, n=96):
    x = rng.standard_normal(4 * n).astype(np.float32)
    u = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = np.full(n, np.nan, np.float32)
    bits = np.full(n, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "simd.rs").simd[((n + 31) // 32,), (32,)](x, u, out, bits, device=device)
    terms, want_bits, _ = expected(x, u)
    return out, bits, terms, want_bits


def check(out, bits, terms, want_bits):
    np.testing.assert_array_equal(bits, want_bits)
    # the sum's order and fma contraction are the compiler's: compare with the sum's scale
    for k, t in enumerate(terms):
        want = float(np.sum(np.array(t, np.float64)))
        scale = float(np.sum(np.abs(np.array(t, np.float64))))
        assert abs(float(out[k]) - want) <= 1e-6 * scale + 1e-6, (k, out[k], want)


def test_cusimd_on_the_simulator(rng):
    check(*run("sim", rng))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_cusimd_assembles(arch, assemble):
    try:
        ptx = driver.compile_source(SRC, "simd.rs", driver.Options(arch=arch)).ptx
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None
    assemble(ptx, arch)


@pytest.mark.parametrize("bad, message", [
    ("v.get::<2>()", "E0080"),
    ("lo.y()", None),
])
def test_cusimd_compile_errors(bad, message):
    src = SRC.replace("v.get::<2>()", "v.get::<4>()") if message else \
        SRC.replace("lo.y()", "lo.z()")
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "simd.rs", driver.Options())
    text = render_all(err.value.diagnostics)
    if message:
        assert "E0080" in text and "index 4 is out of range for `CuSimd<f32, 4>`" in text
    else:
        assert "E0599" in text and "no method named `z` found for `CuSimd<f32, 2>`" in text


@pytest.mark.gpu
def test_cusimd_on_gpu(rng):
    check(*run("gpu", rng, n=256))
