"""Packed half pairs (issue 11): `f16x2::*`, `bf16x2::*`, `convert::cvt_*` and
`tcgen05::cvt_f32x2_bf16x2` on the simulator against NumPy references computed another way
(float64 exact, then NumPy's float16 rounding or bit arithmetic for bf16), through ptxas for
sm_90 (bf16x2 add/sub/mul need it: OX0013 on sm_80), and on the GPU against the simulator."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::convert::{cvt_f16x2_f32, cvt_rz_bf16x2_f32, cvt_rn_relu_f16x2_f32,
                           cvt_f32_f16x2_lo, cvt_f32_bf16x2_hi, cvt_f32x2_f16x2};
use cuda_device::tcgen05::cvt_f32x2_bf16x2;

#[kernel]
pub fn halves(x: &[f32], h: &[u32], b: &[u32], out: *mut u32, fout: *mut f32) {
    let i = thread::index_1d().get();
    if i + 3 >= x.len() || i + 2 >= h.len() {
        return;
    }
    let (h0, h1, h2) = (h[i], h[i + 1], h[i + 2]);
    let (b0, b1, b2) = (b[i], b[i + 1], b[i + 2]);
    let r = [
        f16x2::add_f16x2(h0, h1), f16x2::sub_f16x2(h0, h1), f16x2::mul_f16x2(h0, h1),
        f16x2::fma_f16x2(h0, h1, h2), f16x2::fma_relu_f16x2(h0, h1, h2),
        f16x2::fma_sat_f16x2(h0, h1, h2), f16x2::max_f16x2(h0, h1), f16x2::min_nan_f16x2(h0, h1),
        f16x2::neg_f16x2(h0), f16x2::abs_f16x2(h1),
        bf16x2::add_bf16x2(b0, b1), bf16x2::sub_bf16x2(b0, b1), bf16x2::mul_bf16x2(b0, b1),
        bf16x2::fma_bf16x2(b0, b1, b2), bf16x2::fma_relu_bf16x2(b0, b1, b2),
        bf16x2::min_bf16x2(b0, b1), bf16x2::abs_bf16x2(b2),
        cvt_f16x2_f32(x[i], x[i + 1]), cvt_f32x2_bf16x2(x[i + 2], x[i + 3]),
        cvt_rz_bf16x2_f32(x[i], x[i + 3]), cvt_rn_relu_f16x2_f32(x[i + 1], x[i + 2]),
    ];
    let (lo, hi) = cvt_f32x2_f16x2(h0);
    unsafe {
        let mut k = 0;
        while k < 21 {
            *out.add(i * 21 + k) = r[k];
            k += 1;
        }
        *fout.add(i * 4) = lo;
        *fout.add(i * 4 + 1) = hi;
        *fout.add(i * 4 + 2) = cvt_f32_f16x2_lo(h1);
        *fout.add(i * 4 + 3) = cvt_f32_bf16x2_hi(b1);
    }
}
"""
NOPS = 21


def f16_pack(lo, hi):
    return lo.astype(np.float16).view(np.uint16).astype(np.uint32) | \
        (hi.astype(np.float16).view(np.uint16).astype(np.uint32) << 16)


def bf16_bits(v64):
    """float64 -> bf16 bits, round to nearest even on the float64 bits (normal range)."""
    bits = np.asarray(v64, np.float64).view(np.uint64)
    r = (bits + np.uint64((1 << 44) - 1) + ((bits >> np.uint64(45)) & np.uint64(1))) \
        & ~np.uint64((1 << 45) - 1)
    return (r.view(np.float64).astype(np.float32).view(np.uint32) >> 16).astype(np.uint32)


def bf16_rz_bits(v32):
    return (np.asarray(v32, np.float32).view(np.uint32) >> 16).astype(np.uint32)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def halves_of(v, kind):
    lo, hi = v & 0xFFFF, v >> 16
    if kind == "f16":
        return [p.astype(np.uint16).view(np.float16).astype(np.float64) for p in (lo, hi)]
    return [bf16_value(p) for p in (lo, hi)]


def pack_f16(lo64, hi64):
    return f16_pack(lo64, hi64)


def expected(x, h, b):
    n = x.size - 3
    rows = np.zeros((n, NOPS), np.uint32)
    fl = np.zeros((n, 4), np.float32)
    for i in range(n):
        H = [halves_of(h[i + k:i + k + 1], "f16") for k in range(3)]
        B = [halves_of(b[i + k:i + k + 1], "bf16") for k in range(3)]

        def f16op(fn):
            return pack_f16(*[fn(*(H[k][j] for k in range(3))) for j in (0, 1)])

        def bf16op(fn):
            lo, hi = (bf16_bits(fn(*(B[k][j] for k in range(3)))) for j in (0, 1))
            return lo | (hi << 16)
        relu = lambda v: np.maximum(v, 0.0)  # noqa: E731
        r = [
            f16op(lambda a, c, d: a + c), f16op(lambda a, c, d: a - c),
            f16op(lambda a, c, d: a * c), f16op(lambda a, c, d: a * c + d),
            f16op(lambda a, c, d: relu((a * c + d).astype(np.float16).astype(np.float64))),
            f16op(lambda a, c, d: np.clip((a * c + d).astype(np.float16).astype(np.float64), 0, 1)),
            f16op(lambda a, c, d: np.maximum(a, c)), f16op(lambda a, c, d: np.minimum(a, c)),
            h[i:i + 1] ^ 0x8000_8000, h[i + 1:i + 2] & 0x7FFF_7FFF,
            bf16op(lambda a, c, d: a + c), bf16op(lambda a, c, d: a - c),
            bf16op(lambda a, c, d: a * c), bf16op(lambda a, c, d: a * c + d),
            bf16op(lambda a, c, d: relu(bf16_value(bf16_bits(a * c + d)))),
            bf16op(lambda a, c, d: np.minimum(a, c)), b[i + 2:i + 3] & 0x7FFF_7FFF,
            f16_pack(x[i:i + 1].astype(np.float64), x[i + 1:i + 2].astype(np.float64)),
            bf16_bits(x[i + 2:i + 3].astype(np.float64))
            | (bf16_bits(x[i + 3:i + 4].astype(np.float64)) << 16),
            bf16_rz_bits(x[i:i + 1]) | (bf16_rz_bits(x[i + 3:i + 4]) << 16),
            f16_pack(relu(x[i + 1:i + 2].astype(np.float64)),
                     relu(x[i + 2:i + 3].astype(np.float64))),
        ]
        rows[i] = np.concatenate([np.asarray(v, np.uint32).ravel() for v in r])
        fl[i] = [H[0][0][0], H[0][1][0], H[1][0][0], B[1][1][0]]
    return rows, fl


def inputs(rng, n):
    """Normal values in [1/16, 8) with random signs: sums and products stay normal."""
    def vals(k):
        return np.exp2(rng.uniform(-4, 3, k)) * rng.choice([-1.0, 1.0], k)
    x = vals(n).astype(np.float32)
    h = f16_pack(vals(n), vals(n))
    b = bf16_bits(vals(n)) | (bf16_bits(vals(n)) << 16)
    return x, h, b


def run(module, device, x, h, b):
    n = x.size - 3
    out = np.full(n * NOPS, 0xDEAD_BEEF, np.uint32)
    fout = np.full(n * 4, np.nan, np.float32)
    module.halves[((n + 63) // 64,), (64,)](x, h, b, out, fout, device=device)
    return out.reshape(n, NOPS), fout.reshape(n, 4)


def module(arch="sm_90"):
    try:
        return compile_source(SRC, "halves.rs", arch=arch)
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def test_packed_halves_on_the_simulator(rng):
    x, h, b = inputs(rng, 90)
    out, fout = run(module(), "sim", x, h, b)
    want, fwant = expected(x, h, b)
    for k in range(NOPS):
        np.testing.assert_array_equal(out[:, k], want[:, k], err_msg=f"operation {k}")
    np.testing.assert_array_equal(fout, fwant)


def test_sim_rounding_edges():
    from oxidec.sim.packed import encode, round_to
    # ties to even, the subnormal quantum, overflow to inf (rn) or to the largest (rz)
    f16 = np.array([1 + 2**-11, 1 + 3 * 2**-11, 2**-25, 3 * 2**-25, 65520.0, 1e6])
    want = np.array([1.0, 1 + 2**-9, 0.0, 2**-23, np.inf, np.inf])
    np.testing.assert_array_equal(round_to(f16, "f16"), want)
    assert round_to(np.array([1e6]), "f16", "rz")[0] == 65504.0
    bf = np.array([1 + 2**-8, 1 + 3 * 2**-8, -(2.0**-133) * 1.5])
    np.testing.assert_array_equal(round_to(bf, "bf16"), [1.0, 1 + 2**-6, -(2.0**-132)])
    assert encode(np.array([np.nan]), "bf16")[0] == 0x7FFF


def test_bf16x2_arithmetic_needs_sm_90():
    with pytest.raises(AssertionError, match=r"OX0013.*add_bf16x2. needs sm_90"):
        module("sm_80")


def test_packed_halves_assemble(ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    ptx = module().ptx
    for needle in ("add.rn.f16x2", "fma.rn.relu.f16x2", "min.NaN.f16x2", "mul.rn.bf16x2",
                   "cvt.rn.f16x2.f32", "cvt.rz.bf16x2.f32", "cvt.f32.f16"):
        assert needle in ptx, needle
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.gpu
def test_packed_halves_on_gpu(rng):
    x, h, b = inputs(rng, 1000)
    m = module()
    gpu = run(m, "gpu", x, h, b)
    sim = run(m, "sim", x, h, b)
    for g, s in zip(gpu, sim):
        np.testing.assert_array_equal(g, s)


PRMT = """
#[kernel]
pub fn permute(a: &[u32], b: &[u32], s: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d().get();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = cuda_device::prmt::prmt(a[i], b[i], s[i]);
    }
}
"""


def prmt_reference(a: int, b: int, s: int) -> int:
    src = [(a >> (8 * k)) & 0xFF for k in range(4)] + [(b >> (8 * k)) & 0xFF for k in range(4)]
    out = 0
    for k in range(4):
        nib = (s >> (4 * k)) & 0xF
        byte = src[nib & 7]
        if nib & 8:
            byte = 0xFF if byte & 0x80 else 0
        out |= byte << (8 * k)
    return out


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_prmt(device, rng):
    n = 300
    a, b, s = (rng.integers(0, 2**32, n, dtype=np.uint32) for _ in range(3))
    out = np.full(n, 0xDEAD_BEEF, np.uint32)
    compile_source(PRMT, "prmt.rs").permute[(3,), (128,)](a, b, s, out, device=device)
    want = [prmt_reference(int(x), int(y), int(z)) for x, y, z in zip(a, b, s)]
    assert out.tolist() == want
