"""Warp-level tensor-core instructions (issue 11): `ldmatrix` x1/x2/x4 (.trans),
`movmatrix`, `mma.sync` m16n8k16 / m16n8k8 bf16 and f16 -> f32, tf32 m16n8k8 / m16n8k4,
s8/u8 m16n8k32 / m16n8k16 (.satfinite), and `stmatrix` (sm_90). On the simulator against
NumPy references written from the PTX ISA's fragment tables, through ptxas, and on the GPU.

The simulator rounds each f32 dot product once (float64 sum); the tensor core's order of
additions is not defined, so GPU f32 results are compared within a bound of a few ulp of
sum(|a||b|) + |c|. Fragments and integer results are compared exactly.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all

KERNELS = (Path(__file__).parent / "kernels" / "tensor_core.rs").read_text()


def build(src: str, arch: str = "sm_80") -> driver.Compilation:
    try:
        return driver.compile_source(src, "tensor.rs", driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def module(src: str, arch: str = "sm_80"):
    from oxidec.api import compile_source
    return compile_source(src, "tensor.rs", arch=arch)


def bf16_bits(v: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even f32 -> bf16 bits."""
    u = v.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def f16_value(bits: np.ndarray) -> np.ndarray:
    return bits.view(np.float16).astype(np.float64)


def pack(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint32) | (hi.astype(np.uint32) << 16)


def expected_fragments(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """(32, 14) registers per lane, from ldmatrix's definition: lane l holds row l/4,
    columns 2(l%4), 2(l%4)+1 of each 8x8 matrix (.trans: of its transpose)."""
    lane = np.arange(32)
    g, q = lane // 4, lane % 4
    out = np.zeros((32, 14), np.uint32)
    for m in range(4):
        r0, c0 = 8 * (m % 2), 8 * (m // 2)
        out[:, m] = pack(A[r0 + g, c0 + 2 * q], A[r0 + g, c0 + 2 * q + 1])
        out[:, 4 + m] = pack(A[r0 + 2 * q, c0 + g], A[r0 + 2 * q + 1, c0 + g])
    out[:, 8], out[:, 9], out[:, 10] = out[:, 0], out[:, 1], out[:, 4]
    for m in range(2):
        out[:, 11 + m] = pack(B[8 * m + 2 * q, g], B[8 * m + 2 * q + 1, g])
    out[:, 13] = out[:, 4]  # movmatrix.trans of fa[0]: the transposed first matrix
    return out


def run_mma16(device: str, rng, blocks: int = 2):
    m = module(KERNELS)
    n = 2 * blocks
    a = bf16_bits(rng.standard_normal((n, 16, 16)).astype(np.float32))
    b = bf16_bits(rng.standard_normal((n, 16, 8)).astype(np.float32))
    c = rng.standard_normal((n, 16, 8)).astype(np.float32)
    frag = rng.integers(0, 2**32, n * 32 * 14, dtype=np.uint32)
    d = np.full(n * 4 * 128, np.nan, np.float32)
    m.mma16[(blocks,), (64,)](a.reshape(-1), b.reshape(-1), c.reshape(-1), frag, d,
                              device=device)
    return a, b, c, frag.reshape(n, 32, 14), d.reshape(n, 4, 16, 8)


def mma16_reference(a, b, c):
    """(want, bound): the exact products summed in float64, rounded once; and |a||b|+|c|.
    The same u16 bits are read as bf16 and as f16 (normal bf16 values are finite f16)."""
    want, bound = [], []
    for p in range(a.shape[0]):
        for value, k in ((bf16_value, 16), (f16_value, 16), (bf16_value, 8), (f16_value, 8)):
            A, B = value(a[p])[:, :k], value(b[p])[:k]
            want.append((A @ B + c[p]).astype(np.float32))
            bound.append(np.abs(A) @ np.abs(B) + np.abs(c[p]))
    n = a.shape[0]
    return np.array(want).reshape(n, 4, 16, 8), np.array(bound).reshape(n, 4, 16, 8)


def check_mma16(a, b, c, frag, d, exact: bool):
    for p in range(a.shape[0]):
        np.testing.assert_array_equal(frag[p], expected_fragments(a[p], b[p]))
    want, bound = mma16_reference(a, b, c)
    if exact:
        np.testing.assert_array_equal(d, want)
    else:
        assert (np.abs(d - want) <= 2.0**-18 * bound).all(), np.abs(d - want).max()


def test_ldmatrix_and_16_bit_mma_on_the_simulator(rng):
    check_mma16(*run_mma16("sim", rng), exact=True)


def tf32(v: np.ndarray) -> np.ndarray:
    """f32 values rounded (to nearest, ties away) to tf32's 10 mantissa bits."""
    u = v.astype(np.float32).view(np.uint32).astype(np.uint64)
    return (((u + 0x1000) & 0xFFFFE000).astype(np.uint32)).view(np.float32)


def run_tf32_int(device: str, rng, n: int = 3):
    m = module(KERNELS)
    af = tf32(rng.standard_normal((n, 16, 8)))
    bf = tf32(rng.standard_normal((n, 8, 8)))
    cf = rng.standard_normal((n, 16, 8)).astype(np.float32)
    a8 = rng.integers(0, 256, (n, 16, 32), dtype=np.uint8)
    b8 = rng.integers(0, 256, (n, 8, 32), dtype=np.uint8)  # n-major: B[k, n] = b8[n, k]
    ci = rng.integers(-2**31, 2**31, (n, 16, 8), dtype=np.int64).astype(np.int32)
    ci[:, 0, :4] = [2**31 - 5, -2**31 + 5, 2**31 - 1, 0]  # saturating, wrapping sums
    df = np.full(n * 2 * 128, np.nan, np.float32)
    di = rng.integers(-2**31, 2**31, n * 4 * 128, dtype=np.int64).astype(np.int32)
    m.mma_tf32_int[(n,), (32,)](af.reshape(-1), bf.reshape(-1), cf.reshape(-1),
                                a8.reshape(-1).view(np.uint32), b8.reshape(-1).view(np.uint32),
                                ci.reshape(-1), df, di, device=device)
    return (af, bf, cf, a8, b8, ci), df.reshape(n, 2, 16, 8), di.reshape(n, 4, 16, 8)


def _wrap(v: np.ndarray) -> np.ndarray:
    return ((v + 2**31) % 2**32 - 2**31).astype(np.int32)


def tf32_int_reference(inputs):
    af, bf, cf, a8, b8, ci = inputs
    wf, bound, wi = [], [], []
    for p in range(af.shape[0]):
        A, B = af[p].astype(np.float64), bf[p].astype(np.float64)
        for k in (8, 4):
            wf.append((A[:, :k] @ B[:k] + cf[p]).astype(np.float32))
            bound.append(np.abs(A[:, :k]) @ np.abs(B[:k]) + np.abs(cf[p]))
        s8a, u8a = a8[p].view(np.int8).astype(np.int64), a8[p].astype(np.int64)
        s8b, u8b = b8[p].view(np.int8).astype(np.int64).T, b8[p].astype(np.int64).T
        C = ci[p].astype(np.int64)
        wi.append(_wrap(s8a @ s8b + C))
        wi.append(np.clip(u8a @ s8b + C, -2**31, 2**31 - 1).astype(np.int32))
        wi.append(_wrap(u8a[:, :16] @ u8b[:16] + C))
        wi.append(_wrap(s8a[:, :16] @ u8b[:16] + C))
    n = af.shape[0]
    return (np.array(wf).reshape(n, 2, 16, 8), np.array(bound).reshape(n, 2, 16, 8),
            np.array(wi).reshape(n, 4, 16, 8))


def test_tf32_and_integer_mma_on_the_simulator(rng):
    inputs, df, di = run_tf32_int("sim", rng)
    wf, _, wi = tf32_int_reference(inputs)
    np.testing.assert_array_equal(di, wi)
    np.testing.assert_array_equal(df, wf)


def f16_bits(v: np.ndarray) -> np.ndarray:
    return v.astype(np.float16).view(np.uint16)


def run_f16_f64(device: str, rng, n: int = 2):
    m = module(KERNELS)
    a = f16_bits(rng.standard_normal((n, 16, 16)))
    b = f16_bits(rng.standard_normal((n, 16, 8)))
    c = f16_bits(rng.standard_normal((n, 16, 8)))
    ad, bd = rng.standard_normal((n, 8, 4)), rng.standard_normal((n, 4, 8))
    cd = rng.standard_normal((n, 8, 8))
    dh = rng.integers(0, 2**32, n * 32 * 5, dtype=np.uint32)
    dd = np.full(n * 64, np.nan)
    m.mma_f16_f64[(n,), (32,)](a.reshape(-1), b.reshape(-1), c.reshape(-1), ad.reshape(-1),
                               bd.reshape(-1), cd.reshape(-1), dh, dd, device=device)
    return (a, b, c, ad, bd, cd), dh.reshape(n, 32, 5), dd.reshape(n, 32, 2)


def check_f16_f64(inputs, dh, dd, exact: bool):
    """f16 accumulators: the exact sum rounded once to f16 (GPU: within an f16 ulp of the
    magnitudes); f64: within a few ulp of |a||b|+|c| (float64 sums round on both)."""
    a, b, c, ad, bd, cd = inputs
    lane = np.arange(32)
    g, q = lane // 4, lane % 4
    for p in range(a.shape[0]):
        A, B, C = f16_value(a[p]), f16_value(b[p]), f16_value(c[p])
        for col, k in ((0, 16), (2, 8)):
            D = A[:, :k] @ B[:k] + C
            bound = np.abs(A[:, :k]) @ np.abs(B[:k]) + np.abs(C)
            for r in range(2):
                got = dh[p, :, col + r]
                for h in range(2):
                    half = ((got >> (16 * h)) & 0xFFFF).astype(np.uint16)
                    want = D[g + 8 * r, 2 * q + h]
                    if exact:
                        np.testing.assert_array_equal(half, f16_bits(want))
                    else:
                        err = np.abs(f16_value(half) - want)
                        assert (err <= 2.0**-9 * bound[g + 8 * r, 2 * q + h]).all(), err.max()
        np.testing.assert_array_equal(dh[p, :, 4], pack(a[p][g, 2 * q], a[p][g, 2 * q + 1]))
        D = ad[p] @ bd[p] + cd[p]
        bound = np.abs(ad[p]) @ np.abs(bd[p]) + np.abs(cd[p])
        for i in range(2):
            err = np.abs(dd[p, :, i] - D[g, 2 * q + i])
            assert (err <= 2.0**-50 * bound[g, 2 * q + i]).all(), err.max()


def test_f16_accumulating_and_f64_mma_on_the_simulator(rng):
    check_f16_f64(*run_f16_f64("sim", rng), exact=True)


STMATRIX = """
use cuda_device::wmma::*;
use cuda_device::tcgen05::{stmatrix_m8n8_x2, stmatrix_m8n8_x2_trans, stmatrix_m8n8_x4,
                             stmatrix_m8n8_x4_trans};
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

#[kernel]
pub fn store(a: &[u16], mut out: DisjointSlice<u16>) {
    static mut S: SharedArray<u16, 256, 16> = SharedArray::UNINIT;
    static mut T: SharedArray<u16, 256, 16> = SharedArray::UNINIT;
    static mut U: SharedArray<u16, 128, 16> = SharedArray::UNINIT;
    static mut V: SharedArray<u16, 256, 16> = SharedArray::UNINIT;
    static mut W: SharedArray<u16, 128, 16> = SharedArray::UNINIT;
    let lane = thread::threadIdx_x() as usize;
    let p = thread::blockIdx_x() as usize;
    unsafe {
        for k in 0..8 {
            S[lane * 8 + k] = a[p * 256 + lane * 8 + k];
            T[lane * 8 + k] = 0xFFFF;
            V[lane * 8 + k] = 0xFFFF;
        }
        for k in 0..4 {
            U[lane * 4 + k] = 0xFFFF;
            W[lane * 4 + k] = 0xFFFF;
        }
    }
    thread::sync_threads();
    unsafe {
        let row = (lane % 16) * 16 + (lane / 16) * 8;
        let f = ldmatrix_x4((core::ptr::addr_of!(S) as *const u16).add(row) as *const u32);
        stmatrix_m8n8_x4_trans((core::ptr::addr_of_mut!(T) as *mut u16).add(row) as *mut u8,
                               f[0], f[1], f[2], f[3]);
        stmatrix_m8n8_x2((core::ptr::addr_of_mut!(U) as *mut u16).add((lane % 16) * 8)
                         as *mut u8, f[0], f[1]);
        stmatrix_m8n8_x4((core::ptr::addr_of_mut!(V) as *mut u16).add(row) as *mut u8,
                         f[3], f[2], f[1], f[0]);
        stmatrix_m8n8_x2_trans((core::ptr::addr_of_mut!(W) as *mut u16).add((lane % 16) * 8)
                               as *mut u8, f[2], f[3]);
    }
    thread::sync_threads();
    unsafe {
        for k in 0..8 {
            *out.get_unchecked_mut(p * 768 + lane * 8 + k) = T[lane * 8 + k];
        }
        for k in 0..4 {
            *out.get_unchecked_mut(p * 768 + 256 + lane * 4 + k) = U[lane * 4 + k];
            *out.get_unchecked_mut(p * 768 + 640 + lane * 4 + k) = W[lane * 4 + k];
        }
        for k in 0..8 {
            *out.get_unchecked_mut(p * 768 + 384 + lane * 8 + k) = V[lane * 8 + k];
        }
    }
}
"""


def run_stmatrix(device: str, rng, n: int = 2):
    m = module(STMATRIX, "sm_90")
    a = rng.integers(0, 2**16, (n, 16, 16), dtype=np.uint16)
    out = rng.integers(0, 2**16, n * 768, dtype=np.uint16)
    m.store[(n,), (32,)](a.reshape(-1), out, device=device)
    want = np.zeros((n, 768), np.uint16)
    for p in range(n):
        blocks = [a[p, r0:r0 + 8, c0:c0 + 8] for c0 in (0, 8) for r0 in (0, 8)]  # f[0..4]
        t, v = a[p].copy(), a[p].copy()
        for j, (r0, c0) in enumerate((r, c) for c in (0, 8) for r in (0, 8)):
            t[r0:r0 + 8, c0:c0 + 8] = blocks[j].T
            v[r0:r0 + 8, c0:c0 + 8] = blocks[3 - j]  # x4 given f[3], f[2], f[1], f[0]
        want[p, :256] = t.reshape(-1)
        want[p, 256:384] = a[p, :, :8].reshape(-1)  # x2: the two left matrices, as loaded
        want[p, 384:640] = v.reshape(-1)
        want[p, 640:] = np.concatenate([blocks[2].T, blocks[3].T]).reshape(-1)  # x2.trans
    return out.reshape(n, 768), want


def test_stmatrix_on_the_simulator(rng):
    out, want = run_stmatrix("sim", rng)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tensor_core_kernels_assemble(arch, ptxas, tmp_path):
    sources = [KERNELS] + ([STMATRIX] if arch == "sm_90" else [])
    for n, src in enumerate(sources):
        ptx = build(src, arch).ptx
        assert "ld.local" not in ptx and "st.local" not in ptx  # fragments stay in registers
        path = tmp_path / f"k{n}.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    ptx = build(KERNELS, arch).ptx
    for needle in ("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                   "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                   "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32",
                   "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
                   "movmatrix.sync.aligned.m8n8.trans.b16"):
        assert needle in ptx, needle


def test_stmatrix_needs_sm_90():
    with pytest.raises(AssertionError, match=r"OX0013.*stmatrix_m8n8_x4_trans. needs sm_90"):
        build(STMATRIX, "sm_80")


DIVERGENT = """
use cuda_device::wmma::*;
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn divergent(x: &[u32], mut out: DisjointSlice<f32>) {
    let lane = thread::threadIdx_x() as usize;
    if lane < 16 {
        let r = unsafe { mma_m16n8k8_f32_bf16([0.0; 4], [x[0], x[1]], x[2]) };
        unsafe { *out.get_unchecked_mut(lane) = r[0]; }
    }
}
"""


def test_mma_in_divergent_code_is_rejected():
    with pytest.raises(AssertionError, match="mma_m16n8k8_f32_bf16"):
        build(DIVERGENT)


@pytest.mark.gpu
def test_ldmatrix_and_16_bit_mma_on_gpu(rng):
    check_mma16(*run_mma16("gpu", rng, blocks=4), exact=False)


@pytest.mark.gpu
def test_tf32_and_integer_mma_on_gpu(rng):
    inputs, df, di = run_tf32_int("gpu", rng, n=4)
    wf, bound, wi = tf32_int_reference(inputs)
    np.testing.assert_array_equal(di, wi)
    assert (np.abs(df - wf) <= 2.0**-18 * bound).all(), np.abs(df - wf).max()


@pytest.mark.gpu
def test_f16_accumulating_and_f64_mma_on_gpu(rng):
    check_f16_f64(*run_f16_f64("gpu", rng, n=4), exact=False)


@pytest.mark.gpu
def test_stmatrix_on_gpu(rng):
    out, want = run_stmatrix("gpu", rng, n=3)
    np.testing.assert_array_equal(out, want)
