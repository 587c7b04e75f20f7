"""Float bytes (issue 11): `f32`/`f64` `to_{be,le,ne}_bytes` and `from_{be,le,ne}_bytes`.
On the simulator against NumPy's byte views (NaN payloads and signed zeros included), and on
the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source

SRC = """
use cuda_device::{kernel, thread};

#[kernel]
pub unsafe fn bytes(x: &[f32], y: &[f64], bx: *mut u8, by: *mut u8, rx: *mut f32, ry: *mut f64) {
    let i = thread::index_1d().get();
    if i >= x.len() {
        return;
    }
    let (a, b, c) = (x[i].to_le_bytes(), x[i].to_be_bytes(), x[i].to_ne_bytes());
    let (d, e) = (y[i].to_be_bytes(), y[i].to_ne_bytes());
    let mut k = 0;
    while k < 4 {
        *bx.add(i * 12 + k) = a[k];
        *bx.add(i * 12 + 4 + k) = b[k];
        *bx.add(i * 12 + 8 + k) = c[k];
        k += 1;
    }
    k = 0;
    while k < 8 {
        *by.add(i * 16 + k) = d[k];
        *by.add(i * 16 + 8 + k) = e[k];
        k += 1;
    }
    let rev = [a[3], a[2], a[1], a[0]];
    *rx.add(i * 3) = f32::from_le_bytes(a);
    *rx.add(i * 3 + 1) = f32::from_be_bytes(rev);
    *rx.add(i * 3 + 2) = f32::from_ne_bytes(c);
    *ry.add(i * 2) = f64::from_be_bytes(d);
    *ry.add(i * 2 + 1) = f64::from_le_bytes(e);
}
"""


def run(device, rng, n=64):
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n) * 1e100
    x.view(np.uint32)[:3] = [0x7FC01234, 0x80000000, 0xFF800001]  # NaN payloads, -0
    y.view(np.uint64)[:2] = [0x7FF0000000ABCDEF, 0x8000000000000000]
    bx, by = np.full(n * 12, 0xAA, np.uint8), np.full(n * 16, 0xAA, np.uint8)
    rx, ry = np.zeros(n * 3, np.float32), np.zeros(n * 2, np.float64)
    compile_source(SRC, "fb.rs").bytes[((n + 31) // 32,), (32,)](x, y, bx, by, rx, ry,
                                                                device=device)
    return x, y, bx.reshape(n, 12), by.reshape(n, 16), rx.reshape(n, 3), ry.reshape(n, 2)


def check(x, y, bx, by, rx, ry):
    le = x.view(np.uint8).reshape(-1, 4)
    np.testing.assert_array_equal(bx[:, 0:4], le)
    np.testing.assert_array_equal(bx[:, 4:8], le[:, ::-1])
    np.testing.assert_array_equal(bx[:, 8:12], le)
    le64 = y.view(np.uint8).reshape(-1, 8)
    np.testing.assert_array_equal(by[:, 0:8], le64[:, ::-1])
    np.testing.assert_array_equal(by[:, 8:16], le64)
    for k in range(3):  # the same bits back (NaN payloads too)
        np.testing.assert_array_equal(rx[:, k].view(np.uint32), x.view(np.uint32))
    for k in range(2):
        np.testing.assert_array_equal(ry[:, k].view(np.uint64), y.view(np.uint64))


def test_float_bytes_on_the_simulator(rng):
    check(*run("sim", rng))


@pytest.mark.gpu
def test_float_bytes_on_gpu(rng):
    check(*run("gpu", rng, n=256))
