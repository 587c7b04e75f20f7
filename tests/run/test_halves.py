"""`f16` and `bf16` scalars (issue 11): arithmetic, comparisons, sign operations, math
through f32 and Rust `as` casts, on the simulator against references computed another way
(exact values in float64 or `fractions`, NumPy's own float16 rounding, an exact integer
rounding for bf16), through ptxas for sm_80 and sm_90, and on the GPU bit for bit against
the simulator (the inputs there include NaNs, infinities, signed zeros and subnormals)."""
from __future__ import annotations

import math
import subprocess
from fractions import Fraction

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all
from oxidec.runtime.dtypes import bf16_values

SRC = """
#[kernel]
pub fn halves(a: &[f16], b: &[f16], c: &[f16], p: &[bf16], q: &[bf16], r: &[bf16],
              x: &[f32], y: &[f64], n: &[i64], u: &[u64],
              oh: *mut u16, ob: *mut u16, ow: *mut u32) {
    let i = thread::index_1d().get();
    if i >= a.len() {
        return;
    }
    let (a, b, c, p, q, r) = (a[i], b[i], c[i], p[i], q[i], r[i]);
    let h: [f16; 17] = [
        a + b, a - b, a * b, a / b, a % b, a.mul_add(b, c), -a, a.abs(), a.min(b), a.max(b),
        a.sqrt(), x[i] as f16, y[i] as f16, n[i] as f16, u[i] as f16, p as f16,
        f16::from_f32(x[i] * 0.5),
    ];
    let w: [bf16; 14] = [
        p + q, p - q, p * q, p / q, p.mul_add(q, r), -p, p.abs(), x[i] as bf16, y[i] as bf16,
        n[i] as bf16, u[i] as bf16, a as bf16, bf16::from_f32(p.to_f32() * 2.5),
        (n[i] as i32) as bf16,
    ];
    let flags = (a < b) as u32 | ((a == b) as u32) << 1 | ((a != b) as u32) << 2
        | ((p <= q) as u32) << 3 | ((p > q) as u32) << 4 | (a.is_nan() as u32) << 5
        | ((p >= q) as u32) << 6;
    let v: [u32; 6] = [
        flags, (a as i32) as u32, (p as i32) as u32, (a as f32).to_bits(),
        p.to_f32().to_bits(), (a as u8) as u32,
    ];
    unsafe {
        let mut k = 0;
        while k < 17 {
            *oh.add(i * 17 + k) = h[k].to_bits();
            k += 1;
        }
        k = 0;
        while k < 14 {
            *ob.add(i * 14 + k) = w[k].to_bits();
            k += 1;
        }
        k = 0;
        while k < 6 {
            *ow.add(i * 6 + k) = v[k];
            k += 1;
        }
    }
}
"""
NH, NB, NW = 17, 14, 6
FORMATS = {"f16": (11, -14, 15), "bf16": (8, -126, 127)}


def module(arch="sm_80"):
    try:
        return compile_source(SRC, "halves.rs", arch=arch)
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


# -- references -------------------------------------------------------------------------

def round_exact(v: Fraction | float, fmt: str) -> int:
    """The bits of the half nearest an exact value (ties to even), by integer arithmetic."""
    p, emin, emax = FORMATS[fmt]
    if isinstance(v, float) and math.isnan(v):
        return 0x7FFF
    if isinstance(v, float) and math.isinf(v):
        return (0xFC00 if v < 0 else 0x7C00) if fmt == "f16" else (0xFF80 if v < 0 else 0x7F80)
    v = Fraction(v)
    sign = 0x8000 if v < 0 or (v == 0 and False) else 0
    m = abs(v)
    if m == 0:
        return sign
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    e = max(e, emin)
    q = m / Fraction(2) ** (e - (p - 1))
    n, rem = divmod(q.numerator, q.denominator)
    if 2 * rem > q.denominator or (2 * rem == q.denominator and n & 1):
        n += 1
    if n >> p:
        n, e = n >> 1, e + 1
    if e > emax:
        return sign | (0x7C00 if fmt == "f16" else 0x7F80)
    mant_bits = p - 1
    if n < 1 << mant_bits:  # subnormal
        return sign | n
    exp_field = e + (15 if fmt == "f16" else 127)
    return sign | (exp_field << mant_bits) | (n - (1 << mant_bits))


def value_of(bits: int, fmt: str) -> float:
    if fmt == "f16":
        return float(np.array([bits], np.uint16).view(np.float16)[0])
    return float(bf16_values(np.array([bits], np.uint16))[0])


def fv(v: float) -> Fraction | float:
    return v if not math.isfinite(v) else Fraction(v)


def ref_arith(op, vals, fmt):
    """One operation on exact half values, rounded once (NaN: the canonical NaN)."""
    with np.errstate(all="ignore"):
        f = [float(v) for v in vals]
        if any(math.isnan(v) for v in f):
            return 0x7FFF
        if op == "add":
            r = f[0] + f[1] if not all(map(math.isfinite, f[:2])) else fv(f[0]) + fv(f[1])
        elif op == "sub":
            r = f[0] - f[1] if not all(map(math.isfinite, f[:2])) else fv(f[0]) - fv(f[1])
        elif op == "mul":
            r = float(np.float64(f[0]) * f[1]) if not all(map(math.isfinite, f[:2])) \
                else fv(f[0]) * fv(f[1])
        elif op == "div":
            if f[1] == 0 or not all(map(math.isfinite, f[:2])):
                r = float(np.float64(f[0]) / np.float64(f[1]))
            else:
                r = fv(f[0]) / fv(f[1])
        elif op == "rem":
            r = float(np.fmod(np.float64(f[0]), np.float64(f[1])))
        elif op == "fma":
            if all(map(math.isfinite, f)):
                r = fv(f[0]) * fv(f[1]) + fv(f[2])
            else:
                r = float(np.float64(f[0]) * f[1] + f[2])
        elif op == "sqrt":
            if f[0] < 0:
                return 0x7FFF
            r = float(np.sqrt(np.float64(f[0])))  # double rounding is innocuous for sqrt
        if isinstance(r, float) and math.isnan(r):
            return 0x7FFF
        if isinstance(r, Fraction) and r == 0:  # an exact zero sum: +0 unless both -0
            neg = op in ("add", "sub") and math.copysign(1, f[0]) < 0 and \
                math.copysign(1, f[1] if op == "add" else -f[1]) < 0
            neg |= op == "mul" and (math.copysign(1, f[0]) * math.copysign(1, f[1])) < 0
            neg |= op == "fma" and math.copysign(1, f[0]) * math.copysign(1, f[1]) < 0 \
                and math.copysign(1, f[2]) < 0
            neg |= op == "div" and (math.copysign(1, f[0]) * math.copysign(1, f[1])) < 0
            return 0x8000 if neg else 0
        if isinstance(r, float) and r == 0:
            return 0x8000 if math.copysign(1, r) < 0 else 0
        return round_exact(r, fmt)


def to_int(v: float, lo: int, hi: int) -> int:
    if math.isnan(v):
        return 0
    if math.isinf(v):
        return hi if v > 0 else lo
    return max(lo, min(hi, math.trunc(v)))


def minmax(kind, x, y):
    if math.isnan(x) and math.isnan(y):
        return math.nan
    if math.isnan(x) or math.isnan(y):
        return y if math.isnan(x) else x
    if x == y == 0:
        neg = (math.copysign(1, x) < 0) or (math.copysign(1, y) < 0) if kind == "min" else \
            (math.copysign(1, x) < 0) and (math.copysign(1, y) < 0)
        return -0.0 if neg else 0.0
    return min(x, y) if kind == "min" else max(x, y)


def expected(a, b, c, p, q, r, x, y, n, u):
    with np.errstate(all="ignore"):  # p * 2.5 overflows to inf in f32 for the largest bf16
        return _expected(a, b, c, p, q, r, x, y, n, u)


def _expected(a, b, c, p, q, r, x, y, n, u):
    rows_h, rows_b, rows_w = [], [], []
    for i in range(a.size):
        A, B, C = (value_of(int(v[i]), "f16") for v in (a.view(np.uint16), b.view(np.uint16),
                                                         c.view(np.uint16)))
        P, Q, R = (value_of(int(v[i]), "bf16") for v in (p, q, r))
        ab = int(a.view(np.uint16)[i])
        pb = int(p[i])
        h = [ref_arith("add", (A, B), "f16"), ref_arith("sub", (A, B), "f16"),
             ref_arith("mul", (A, B), "f16"), ref_arith("div", (A, B), "f16"),
             ref_arith("rem", (A, B), "f16"), ref_arith("fma", (A, B, C), "f16"),
             ab ^ 0x8000, ab & 0x7FFF]
        for kind in ("min", "max"):
            m = minmax(kind, A, B)
            h.append(0x7FFF if math.isnan(m) else round_exact(fv(m), "f16")
                     if m != 0 else (0x8000 if math.copysign(1, m) < 0 else 0))
        h.append(ref_arith("sqrt", (A,), "f16") if not (A == 0) else (ab & 0x8000))
        h += [half_of(float(x[i]), "f16"), f64_to_f16(y[i]),
              round_exact(Fraction(int(n[i])), "f16"), round_exact(Fraction(int(u[i])), "f16"),
              half_of(P, "f16"), half_of(float(np.float32(x[i]) * np.float32(0.5)), "f16")]
        w = [ref_arith("add", (P, Q), "bf16"), ref_arith("sub", (P, Q), "bf16"),
             ref_arith("mul", (P, Q), "bf16"), ref_arith("div", (P, Q), "bf16"),
             ref_arith("fma", (P, Q, R), "bf16"), pb ^ 0x8000, pb & 0x7FFF,
             half_of(float(x[i]), "bf16"), half_of(float(y[i]), "bf16"),
             round_exact(Fraction(int(n[i])), "bf16"), round_exact(Fraction(int(u[i])), "bf16"),
             half_of(A, "bf16"), half_of(float(np.float32(P) * np.float32(2.5)), "bf16"),
             round_exact(Fraction(int(np.int64(n[i]).astype(np.int32))), "bf16")]
        lt, eq = A < B, A == B
        flags = int(lt) | int(eq) << 1 | int(not eq) << 2 | int(P <= Q) << 3 | int(P > Q) << 4 \
            | int(math.isnan(A)) << 5 | int(P >= Q) << 6
        v = [flags, to_int(A, -2**31, 2**31 - 1) & 0xFFFFFFFF,
             to_int(P, -2**31, 2**31 - 1) & 0xFFFFFFFF,
             int(np.array([A], np.float32).view(np.uint32)[0]) if not math.isnan(A) else None,
             int(np.array([P], np.float32).view(np.uint32)[0]) if not math.isnan(P) else None,
             to_int(A, 0, 255)]
        rows_h.append(h)
        rows_b.append(w)
        rows_w.append(v)
    return rows_h, rows_b, rows_w


def half_of(v: float, fmt: str) -> int:
    if math.isnan(v):
        return 0x7FFF
    if v == 0:
        return 0x8000 if math.copysign(1, v) < 0 else 0
    return round_exact(fv(v), fmt)


def f64_to_f16(v) -> int:
    """`y as f16`: one `cvt.rn.f16.f64`, which keeps a NaN's sign and the top 10 bits of its
    payload, quieted (the H200 gives 0x7e00 for 0x7ff8000000000000)."""
    if not math.isnan(v):
        return half_of(float(v), "f16")
    raw = int(np.array([v], np.float64).view(np.uint64)[0])
    return (raw >> 48 & 0x8000) | 0x7E00 | (raw >> 42 & 0x3FF)


# -- inputs -----------------------------------------------------------------------------

def f16s(rng, k):
    """f16 values over the whole normal range and then some subnormals."""
    mag = np.exp2(rng.uniform(-16, 15.9, k)) * rng.choice([-1.0, 1.0], k)
    return mag.astype(np.float16)


def bf16s(rng, k):
    mag = np.exp2(rng.uniform(-60, 60, k)) * rng.choice([-1.0, 1.0], k)
    f = mag.astype(np.float32)
    return (f.view(np.uint32) >> 16).astype(np.uint16)  # truncated: any bf16 will do


def inputs(rng, k, specials: bool):
    a, b, c = f16s(rng, k), f16s(rng, k), f16s(rng, k)
    p, q, r = bf16s(rng, k), bf16s(rng, k), bf16s(rng, k)
    x = (np.exp2(rng.uniform(-30, 20, k)) * rng.choice([-1.0, 1.0], k)).astype(np.float32)
    y = np.exp2(rng.uniform(-140, 140, k)) * rng.choice([-1.0, 1.0], k)
    n = rng.integers(-2**62, 2**62, k, dtype=np.int64) >> rng.integers(0, 62, k)
    u = rng.integers(0, 2**63, k, dtype=np.uint64) << rng.integers(0, 2, k).astype(np.uint64)
    # ties and near-ties of the conversions: exactly representable midpoints, +- a little
    t = rng.integers(1, 1 << 9, k // 4).astype(np.int64)
    n[:k // 4] = ((2 * t + 1) << 31) + rng.integers(-1, 2, k // 4)  # bf16 midpoints
    x[k // 4:k // 2] = (1.0 + (2 * rng.integers(0, 1024, k // 4) + 1) / 2048.0).astype(np.float32)
    if specials:
        sp16 = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 6e-8, -6e-8, 65504, 2**-14],
                        np.float16)
        a[:sp16.size], b[sp16.size:2 * sp16.size] = sp16, sp16
        c[2 * sp16.size:3 * sp16.size] = sp16
        spb = np.array([0x7FC0, 0x7F80, 0xFF80, 0, 0x8000, 1, 0x8001, 0x7F7F, 0x7FA1],
                       np.uint16)
        p[:spb.size], q[spb.size:2 * spb.size], r[:spb.size] = spb, spb, spb
        x[:4] = [np.nan, np.inf, 1e30, 65519.9]
        y[:4] = [np.nan, -np.inf, 1e300, 2.0**-140]
        # NaNs of other signs and payloads (a signalling one too): f64 -> f16 keeps them
        y.view(np.uint64)[4:7] = [0xFFF4000000001234, 0x7FF0ABCD00000000, 0xFFFFFFFFFFFFFFFF]
    return a, b, c, p, q, r, x, y, n, u


def run(m, device, args):
    k = args[0].size
    oh = np.full(k * NH, 0xDEAD, np.uint16)
    ob = np.full(k * NB, 0xDEAD, np.uint16)
    ow = np.full(k * NW, 0xDEADBEEF, np.uint32)
    m.halves[((k + 63) // 64,), (64,)](*args, oh, ob, ow, device=device)
    return oh.reshape(k, NH), ob.reshape(k, NB), ow.reshape(k, NW)


def check(got, want, what):
    for i, (g, w) in enumerate(zip(got, want)):
        for j, wv in enumerate(w):
            if wv is not None:
                assert int(g[j]) == wv, f"{what} row {i} op {j}: got {int(g[j]):#x}, want {wv:#x}"


def test_halves_on_the_simulator(rng):
    args = inputs(rng, 160, specials=False)
    oh, ob, ow = run(module(), "sim", args)
    wh, wb, ww = expected(*args)
    check(oh, wh, "f16")
    check(ob, wb, "bf16")
    check(ow, ww, "u32")


def test_halves_specials_on_the_simulator(rng):
    """NaN -> the canonical NaN (neg/abs keep the bits), inf, signed zeros, subnormals."""
    args = inputs(rng, 64, specials=True)
    oh, ob, ow = run(module(), "sim", args)
    wh, wb, ww = expected(*args)
    check(oh, wh, "f16")
    check(ob, wb, "bf16")
    check(ow, ww, "u32")


def test_rounding_edges():
    """Ties to even, the subnormal quantum, overflow: known bit patterns."""
    from oxidec.passes.consteval import int_to_float, round_float
    from oxidec import types as T
    from oxidec.half_float import half_bits
    assert half_bits(1 + 2**-11, T.F16) == 0x3C00
    assert half_bits(1 + 3 * 2**-11, T.F16) == 0x3C02
    assert half_bits(2**-25, T.F16) == 0 and half_bits(3 * 2**-25, T.F16) == 2
    assert half_bits(65519.99, T.F16) == 0x7BFF and half_bits(65520, T.F16) == 0x7C00
    assert half_bits(1 + 2**-8, T.BF16) == 0x3F80
    assert half_bits(1 + 2**-8 + 2**-30, T.BF16) == 0x3F81
    assert half_bits(float.fromhex("0x1.ff8p127"), T.BF16) == 0x7F80
    assert half_bits(2**-133, T.BF16) == 1 and half_bits(2**-134, T.BF16) == 0
    # an integer just above a bf16 midpoint: rounding through f32 first would give 2^40
    assert int_to_float(2**40 + 2**32 + 1, T.BF16) == 2**40 + 2**33
    assert round_float(0.1, T.F16) == float(np.float16(0.1))


LITERALS = """
const K: f16 = 0.1;
#[kernel]
pub fn lits(out: *mut u16) {
    let i = thread::index_1d().get();
    let h: f16 = 65520.0;
    let b: bf16 = 1.00390625;
    let v = [K.to_bits(), h.to_bits(), b.to_bits(), 2.5f16.to_bits(), f16::MAX.to_bits(),
             bf16::EPSILON.to_bits(), f16::MIN_POSITIVE.to_bits(), (-0.0f16).to_bits()];
    if i < 8 {
        unsafe { *out.add(i) = v[i]; }
    }
}
"""


def test_half_literals_and_constants():
    m = compile_source(LITERALS, "lits.rs")
    out = np.zeros(8, np.uint16)
    m.lits[(1,), (8,)](out, device="sim")
    assert [hex(v) for v in out] == [hex(v) for v in (
        0x2E66, 0x7C00, 0x3F80, 0x4100, 0x7BFF, 0x3C00, 0x0400, 0x8000)]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_halves_assemble(arch, assemble):
    ptx = module(arch).ptx
    for needle in ("add.rn.f16", "fma.rn.bf16", "cvt.rn.f16.f64", "cvt.rz.f32.f64",
                   "xor.b16", "cvt.f32.bf16", "ld.global.nc.b16"):
        assert needle in ptx, needle
    assemble(ptx, arch)


@pytest.mark.gpu
def test_halves_on_gpu_match_the_simulator(rng):
    args = inputs(rng, 4096, specials=True)
    m = module()
    gpu = run(m, "gpu", args)
    sim = run(m, "sim", args)
    for what, g, s in zip(("f16", "bf16", "u32"), gpu, sim):
        bad = np.argwhere(g != s)
        assert bad.size == 0, f"{what}: {len(bad)} differ, first (row, op) {bad[:5].tolist()}: " \
            f"gpu {[hex(int(g[tuple(i)])) for i in bad[:5]]} sim {[hex(int(s[tuple(i)])) for i in bad[:5]]}"
    wh, wb, ww = expected(*args)
    check(gpu[0], wh, "f16 (gpu)")
    check(gpu[1], wb, "bf16 (gpu)")


ATOMICS = """
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicF16};
#[kernel]
pub fn bins(x: &[f16], sums: &[DeviceAtomicF16], olds: *mut f16) {
    let i = thread::index_1d().get();
    if i < x.len() {
        let old = sums[i % 4].fetch_add(x[i], AtomicOrdering::Relaxed);
        sums[4].fetch_sub(x[i], AtomicOrdering::AcqRel);
        unsafe { *olds.add(i) = old; }
    }
}
"""


def atomic_inputs(rng, n, top=16):
    """Quarters in [-top/4, top/4], with n * top / 4 < 512: every partial sum in any order is
    a quarter below 512, exact in f16, so the GPU's order gives the same sums."""
    x = (rng.integers(-top, top + 1, n) / 4).astype(np.float16)
    sums = np.zeros(5, np.float16)
    sums[4] = np.float16(rng.integers(1, 8))
    return x, sums


def test_f16_atomics_on_the_simulator(rng):
    m = compile_source(ATOMICS, "bins.rs")
    x, sums = atomic_inputs(rng, 120)
    start = sums.copy()
    olds = np.full(x.size, np.nan, np.float16)
    m.bins[(5,), (64,)](x, sums, olds, device="sim")
    want = [x[k::4].astype(np.float64).sum() for k in range(4)] + [start[4] - x.astype(np.float64).sum()]
    np.testing.assert_array_equal(sums.astype(np.float64), want)
    # in lane order, each lane's old value is the sum of the lanes before it in its bin
    for k in range(4):
        np.testing.assert_array_equal(olds[k::4].astype(np.float64),
                                      np.concatenate([[0.0], np.cumsum(x[k::4].astype(np.float64))[:-1]]))
    assert "atom.relaxed.gpu.global.add.noftz.f16" in m.ptx
    assert "atom.acq_rel.gpu.global.add.noftz.f16" in m.ptx


@pytest.mark.gpu
def test_f16_atomics_on_gpu(rng):
    m = compile_source(ATOMICS, "bins.rs")
    x, sums = atomic_inputs(rng, 2000, top=1)
    start = sums.copy()
    olds = np.full(x.size, np.nan, np.float16)
    m.bins[((x.size + 127) // 128,), (128,)](x, sums, olds, device="gpu")
    want = [x[k::4].astype(np.float64).sum() for k in range(4)] + [start[4] - x.astype(np.float64).sum()]
    np.testing.assert_array_equal(sums.astype(np.float64), want)
    assert not np.isnan(olds.astype(np.float32)).any()


PACKED_ATOMICS = """
use cuda_device::atomic::{atom_add_f16x2, atom_add_bf16x2, AtomicOrdering, DeviceAtomicF16};
#[kernel]
pub unsafe fn packed(v: &[u32], w: &[u32], acc: *mut u32, accb: *mut u32, h: *mut f16,
                     olds: *mut u32) {
    let i = thread::index_1d().get();
    if i < v.len() {
        let o = unsafe { atom_add_f16x2(acc.add(i % 3), v[i]) };
        unsafe { atom_add_bf16x2(accb.add(i % 2), w[i]) };
        let cell = unsafe { DeviceAtomicF16::from_ptr(h) };
        // exactly one lane finds 1.0 there and swaps in -2.0
        let won = cell.compare_exchange(f16::from_f32(1.0), f16::from_f32(-2.0),
                                        AtomicOrdering::AcqRel, AtomicOrdering::Relaxed);
        unsafe { *olds.add(i) = if won.is_ok() { 1 } else { 0 } + (o & 0) }
    }
}
"""


def packed_inputs(rng, n):
    """Quarters / eighths small enough that every partial sum is exact in any order."""
    lo, hi = (rng.integers(-4, 5, n) / 4).astype(np.float16), (rng.integers(-4, 5, n) / 8) \
        .astype(np.float16)
    v = (lo.view(np.uint16).astype(np.uint32) | hi.view(np.uint16).astype(np.uint32) << 16)
    blo, bhi = (rng.integers(-3, 4, n) / 2).astype(np.float32), (rng.integers(-3, 4, n) / 4) \
        .astype(np.float32)
    w = (blo.view(np.uint32) >> 16) | ((bhi.view(np.uint32) >> 16) << 16)
    return v.astype(np.uint32), w.astype(np.uint32), lo, hi, blo, bhi


def check_packed(v, w, lo, hi, blo, bhi, acc, accb, h, olds):
    n = v.size
    for k in range(3):
        got = acc[k:k + 1].view(np.float16)
        assert got[0] == lo[k::3].astype(np.float64).sum() and got[1] == hi[k::3].astype(np.float64).sum()
    for k in range(2):
        halves_ = [(int(accb[k]) & 0xFFFF) << 16, (int(accb[k]) >> 16) << 16]
        got = np.array(halves_, np.uint32).view(np.float32)
        assert got[0] == blo[k::2].sum() and got[1] == bhi[k::2].sum()
    assert h[0] == np.float16(-2.0) and olds.sum() == 1


def test_packed_and_f16_atomics_on_the_simulator(rng):
    m = compile_source(PACKED_ATOMICS, "packed.rs", arch="sm_90")
    for needle in ("atom.global.add.noftz.f16x2", "atom.global.add.noftz.bf16x2",
                   "atom.acq_rel.gpu.global.cas.b16"):
        assert needle in m.ptx, needle
    v, w, lo, hi, blo, bhi = packed_inputs(rng, 150)
    acc, accb = np.zeros(3, np.uint32), np.zeros(2, np.uint32)
    h, olds = np.ones(1, np.float16), np.full(150, 7, np.uint32)
    m.packed[(3,), (64,)](v, w, acc, accb, h, olds, device="sim")
    check_packed(v, w, lo, hi, blo, bhi, acc, accb, h, olds)


def test_packed_atomics_assemble(ptxas, tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(compile_source(PACKED_ATOMICS, "packed.rs", arch="sm_90").ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with pytest.raises(CompileError) as err:  # atom.add.bf16x2 is sm_90
        compile_source(PACKED_ATOMICS, "packed.rs", arch="sm_80")
    assert "OX0013" in [d.code for d in err.value.diagnostics]


def test_f16_atomic_swap_is_refused():
    src = ATOMICS.replace("sums[4].fetch_sub(x[i], AtomicOrdering::AcqRel);",
                          "sums[4].swap(x[i], AtomicOrdering::AcqRel);")
    with pytest.raises(CompileError) as err:
        compile_source(src, "bins.rs")
    assert any("no method named `swap`" in d.message for d in err.value.diagnostics)


@pytest.mark.gpu
def test_packed_and_f16_atomics_on_gpu(rng):
    m = compile_source(PACKED_ATOMICS, "packed.rs", arch="sm_90")
    v, w, lo, hi, blo, bhi = packed_inputs(rng, 300)
    acc, accb = np.zeros(3, np.uint32), np.zeros(2, np.uint32)
    h, olds = np.ones(1, np.float16), np.full(300, 7, np.uint32)
    m.packed[(5,), (64,)](v, w, acc, accb, h, olds, device="gpu")
    check_packed(v, w, lo, hi, blo, bhi, acc, accb, h, olds)


HALF_CRATE_CONSTS = """
#[kernel]
pub fn c(out: *mut u16) {
    let i = thread::index_1d().get();
    let v = [f16::PI.to_bits(), bf16::ONE.to_bits(), f16::NEG_ZERO.to_bits(),
             f16::MIN_POSITIVE_SUBNORMAL.to_bits(), bf16::MAX_SUBNORMAL.to_bits(),
             core::f16::consts::E.to_bits(), bf16::consts::LN_2.to_bits(), f16::NEG_ONE.to_bits()];
    if i < 8 { unsafe { *out.add(i) = v[i]; } }
}
"""


def test_half_crate_constants():
    """The `half` crate's associated consts and core's `f16::consts` (bits from the formats:
    pi = 0x4248 in f16, ln 2 = 0x3F31 in bf16, ...)."""
    m = compile_source(HALF_CRATE_CONSTS, "c.rs")
    out = np.zeros(8, np.uint16)
    m.c[(1,), (8,)](out, device="sim")
    want = [T_bits(np.pi, "f16"), 0x3F80, 0x8000, 0x0001, 0x007F, T_bits(np.e, "f16"),
            round_exact(Fraction(math.log(2)), "bf16"), 0xBC00]
    assert [int(v) for v in out] == want


def T_bits(v: float, fmt: str) -> int:
    return int(np.array([v], np.float16).view(np.uint16)[0]) if fmt == "f16" else \
        round_exact(Fraction(v), fmt)
