"""`cuda_device::f16::{max,min}[_ftz][_nan]_f16` and `bf16::{max,min}[_nan]_bf16` on a half's
u16 bits (issue 11), also through module aliases as the corpus writes them: the simulator
against PTX's min/max rules computed here from NumPy's float16 and exact bf16 values, ptxas
for sm_80 and sm_90, and the GPU against the same reference."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

OPS = ["max_f16", "min_f16", "max_ftz_f16", "min_ftz_f16", "max_nan_f16", "min_nan_f16",
       "max_ftz_nan_f16", "min_ftz_nan_f16", "max_bf16", "min_bf16", "max_nan_bf16",
       "min_nan_bf16"]

SRC = """
use cuda_device::{f16 as device_f16, bf16 as device_bf16};
#[kernel]
pub fn mm(a: &[u16], b: &[u16], out: *mut u16) {
    let i = thread::index_1d().get();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let r = [CALLS];
        unsafe {
            let mut k = 0;
            while k < NOPS {
                *out.add(i * NOPS + k) = r[k];
                k += 1;
            }
        }
    }
}
""".replace("CALLS", ", ".join(
    f"{'device_bf16' if op.endswith('bf16') else 'device_f16'}::{op}(x, y)" for op in OPS)) \
    .replace("NOPS", str(len(OPS)))


def value(bits: int, bf16: bool) -> float:
    if bf16:
        return float(np.array([bits << 16], np.uint32).view(np.float32)[0])
    return float(np.array([bits], np.uint16).view(np.float16)[0])


def reference(a, b) -> np.ndarray:
    out = np.zeros((a.size, len(OPS)), np.uint16)
    for i in range(a.size):
        for j, op in enumerate(OPS):
            bf16 = op.endswith("bf16")
            kind, ftz, nan = op[:3], "_ftz" in op, "_nan" in op
            x, y = int(a[i]), int(b[i])
            if ftz:  # subnormals (exponent field 0) are zeros of their sign
                x, y = (v & 0x8000 if (v & 0x7C00) == 0 else v for v in (x, y))
            vx, vy = value(x, bf16), value(y, bf16)
            if np.isnan(vx) or np.isnan(vy):
                if nan or (np.isnan(vx) and np.isnan(vy)):
                    r = 0x7FFF
                else:
                    r = y if np.isnan(vx) else x
            elif vx == vy:  # equal values; zeros order -0 < +0
                neg_x, neg_y = x >> 15, y >> 15
                r = (x if neg_x else y) if kind == "min" else (y if neg_x else x)
            else:
                r = x if (vx < vy) == (kind == "min") else y
            out[i, j] = r
    return out


def inputs(rng, n):
    def draw():
        v = rng.integers(0, 1 << 16, n).astype(np.uint16)
        special = np.array([0x7E00, 0x7FFF, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x0001, 0x8003,
                            0x7FC0, 0xFF80, 0x7F80], np.uint16)
        k = rng.integers(0, n, n // 4)
        v[k] = rng.choice(special, k.size)
        return v
    a, b = draw(), draw()
    b[:n // 8] = a[:n // 8]  # ties
    return a, b


def run(m, device, a, b):
    out = np.full(a.size * len(OPS), 0xDEAD, np.uint16)
    m.mm[((a.size + 63) // 64,), (64,)](a, b, out, device=device)
    return out.reshape(a.size, len(OPS))


def test_scalar_minmax_on_the_simulator(rng):
    a, b = inputs(rng, 400)
    np.testing.assert_array_equal(run(compile_source(SRC, "mm.rs"), "sim", a, b),
                                  reference(a, b))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_scalar_minmax_assemble(arch, assemble):
    ptx = compile_source(SRC, "mm.rs", arch=arch).ptx
    for needle in ("max.f16", "min.ftz.NaN.f16", "max.NaN.bf16", "min.bf16"):
        assert needle in ptx, needle
    assemble(ptx, arch)


@pytest.mark.gpu
def test_scalar_minmax_on_gpu(rng):
    a, b = inputs(rng, 5000)
    m = compile_source(SRC, "mm.rs")
    np.testing.assert_array_equal(run(m, "gpu", a, b), run(m, "sim", a, b))
    np.testing.assert_array_equal(run(m, "gpu", a, b), reference(a, b))
