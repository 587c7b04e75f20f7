"""The 8x8 integer `mma.sync` shapes (issue 11): `wmma::mma_m8n8k16_s32_{s8,u8}[_{s8,u8}]
[_satfinite]` (four 8-bit values to a register), `mma_m8n8k32_s32_{s4,u4}..` (eight 4-bit
values) and `mma_m8n8k128_s32_b1_{and,xor}_popc` (32 bits), also under their
`cuda_intrinsics::matrix::` names: A, B one register each, C/D `[i32; 2]`. PTX's fragments
("Matrix Fragments for mma.m8n8k16" and siblings): lane l holds row l/4 of A, columns
(l%4)*E .. +E (E elements to a register), column l/4 of B, rows (l%4)*E .. +E, and D[l/4]
[2*(l%4) + r]. On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

from int_mma import as_signed, s32_result

# shape -> (k, element width in bits)
SHAPES = {"m8n8k16": (16, 8), "m8n8k32": (32, 4), "m8n8k128": (128, 1)}


def kinds(shape):
    """(function name, A signed, B signed, saturating, popc op) of every variant."""
    k, w = SHAPES[shape]
    if w == 1:
        return [(f"mma_{shape}_s32_b1_{op}_popc", False, False, False, op)
                for op in ("and", "xor")]
    s, u = f"s{w}", f"u{w}"
    out = []
    for a in (s, u):
        for b in (s, u):
            for sat in (False, True):
                name = f"mma_{shape}_s32_{a if a == b else a + '_' + b}" + \
                    ("_satfinite" if sat else "")
                out.append((name, a == s, b == s, sat, None))
    return out


def source(shape: str, module: str = "wmma") -> str:
    calls = []
    for n, (fn, *_rest) in enumerate(kinds(shape)):
        calls.append(f"""        let d = {module}::{fn}(c, a[lane], b[lane]);
        *out.add(({n} * 32 + lane) * 2) = d[0];
        *out.add(({n} * 32 + lane) * 2 + 1) = d[1];""")
    use = "use cuda_device::wmma;" if module == "wmma" else "use cuda_intrinsics::matrix;"
    return f"""
use cuda_device::{{kernel, thread}};
{use}

#[kernel]
pub unsafe fn mma8x8(a: &[u32], b: &[u32], cin: &[i32], out: *mut i32) {{
    let lane = thread::threadIdx_x() as usize;
    let c = [cin[lane * 2], cin[lane * 2 + 1]];
    unsafe {{
{chr(10).join(calls)}
    }}
}}
"""


def run(device, rng, shape, module="wmma"):
    k, w = SHAPES[shape]
    per = 32 // w  # elements to a register
    A = rng.integers(0, 1 << w, (8, k))  # raw bit patterns: their value depends on the kind
    B = rng.integers(0, 1 << w, (k, 8))
    a = np.zeros(32, np.uint32)
    b = np.zeros(32, np.uint32)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        a[lane] = sum(int(A[g, per * t + e]) << (w * e) for e in range(per))
        b[lane] = sum(int(B[per * t + e, g]) << (w * e) for e in range(per))
    C = rng.integers(-2**31, 2**31, (8, 8))
    C[0, 0], C[1, 1] = 2**31 - 3, -2**31 + 2  # sums past the s32 range: wrap or saturate
    cin = np.array([C[lane // 4, 2 * (lane % 4) + r] for lane in range(32) for r in range(2)],
                   np.int32)
    ks = kinds(shape)
    out = np.full(len(ks) * 64, -0x2152_4111, np.int32)
    compile_source(source(shape, module), "m8.rs").mma8x8[(1,), (32,)](
        a, b, cin, out, device=device)
    want = np.zeros_like(out)
    for n, (_fn, sa, sb, sat, op) in enumerate(ks):
        As = as_signed(A, w) if sa else A
        Bs = as_signed(B, w) if sb else B
        if op == "xor":
            P = (A[:, :, None] ^ B[None, :, :]).sum(1)
        else:
            P = As @ Bs
        D = s32_result(P + C, sat)
        for lane in range(32):
            for r in range(2):
                want[(n * 32 + lane) * 2 + r] = D[lane // 4, 2 * (lane % 4) + r]
    return out, want


@pytest.mark.parametrize("shape", list(SHAPES))
def test_mma_8x8_ints_on_the_simulator(shape, rng):
    out, want = run("sim", rng, shape)
    np.testing.assert_array_equal(out, want)


def test_mma_8x8_under_the_intrinsics_names(rng):
    out, want = run("sim", rng, "m8n8k16", module="matrix")
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_mma_8x8_ints_assemble(arch, assemble):
    for shape in SHAPES:
        try:
            ptx = driver.compile_source(source(shape), "m.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        assert f"mma.sync.aligned.{shape}.row.col" in ptx
        assemble(ptx, arch)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", list(SHAPES))
def test_mma_8x8_ints_on_gpu(shape, rng):
    out, want = run("gpu", rng, shape)
    np.testing.assert_array_equal(out, want)
