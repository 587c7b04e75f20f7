"""4-bit and 1-bit integer `mma.sync` (issue 11):
`wmma::mma_m16n8k64_s32_{s4,u4}[_{s4,u4}][_satfinite]` (A 4 registers, B 2) and
`mma_m16n8k32_s32_..` (A 2, B 1), eight 4-bit values to a register in PTX's fragment layout
(that of the 8-bit shapes with k doubled); `mma_m16n8k{256,128}_s32_b1_{and,xor}_popc`, 32
bits to a register. On the simulator against NumPy's integer matrix product, through
ptxas, and on the GPU."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

from int_mma import as_signed, c_pos, s32_result

SHAPES = {"m16n8k64": (64, 4, 2), "m16n8k32": (32, 2, 1)}  # k, A registers, B registers
KINDS = [("s4", "s4", False), ("u4", "u4", False), ("s4", "u4", True), ("u4", "s4", False)]


def fn_name(shape, a, b, sat):
    return f"mma_{shape}_s32_{a if a == b else a + '_' + b}{'_satfinite' if sat else ''}"


def mma_kernel(name: str, na: int, nb: int, fns: list[str]) -> str:
    """A one-warp kernel: each lane loads its A/B/C fragments (`na`/`nb` registers of A/B,
    four of C), calls every `wmma::` function of `fns` and writes its D to out[n][lane][0..4]."""
    b_ty = "u32" if nb == 1 else f"[u32; {nb}]"
    b_expr = "b[lane]" if nb == 1 else f"[{', '.join(f'b[lane * {nb} + {j}]' for j in range(nb))}]"
    calls = []
    for n, fn in enumerate(fns):
        calls.append(f"""        let d = wmma::{fn}(c, av, bv);
        let mut j = 0;
        while j < 4 {{
            *out.add(({n} * 32 + lane) * 4 + j) = d[j];
            j += 1;
        }}""")
    return f"""
use cuda_device::{{kernel, thread, wmma}};

#[kernel]
pub unsafe fn {name}(a: &[u32], b: &[u32], cin: &[i32], out: *mut i32) {{
    let lane = thread::threadIdx_x() as usize;
    let av: [u32; {na}] = [{', '.join(f'a[lane * {na} + {j}]' for j in range(na))}];
    let bv: {b_ty} = {b_expr};
    let c = [cin[lane * 4], cin[lane * 4 + 1], cin[lane * 4 + 2], cin[lane * 4 + 3]];
    unsafe {{
{chr(10).join(calls)}
    }}
}}
"""


def source(shape: str) -> str:
    k, na, nb = SHAPES[shape]
    return mma_kernel("mma4", na, nb, [fn_name(shape, a, bb, sat) for a, bb, sat in KINDS])


def a_pos(shape, lane, r, e):
    g, t = lane // 4, lane % 4
    if shape == "m16n8k64":
        return g + 8 * (r & 1), 8 * t + e + 32 * (r >> 1)
    return g + 8 * r, 8 * t + e


def b_pos(shape, lane, r, e):
    g, t = lane // 4, lane % 4
    return 8 * t + e + 32 * r, g


def nibbles(v):
    return np.asarray(v, np.int64) & 0xF


def run(device, rng, shape):
    k, na, nb = SHAPES[shape]
    an = rng.integers(0, 16, (16, k))  # raw nibbles: their value depends on s4 / u4
    bn = rng.integers(0, 16, (k, 8))
    a = np.zeros(32 * na, np.uint32)
    b = np.zeros(32 * nb, np.uint32)
    for lane in range(32):
        for r in range(na):
            a[lane * na + r] = sum(int(an[a_pos(shape, lane, r, e)]) << (4 * e) for e in range(8))
        for r in range(nb):
            b[lane * nb + r] = sum(int(bn[b_pos(shape, lane, r, e)]) << (4 * e) for e in range(8))
    C = rng.integers(-2**31, 2**31, (16, 8))
    C[0, 0], C[1, 1] = 2**31 - 5, -2**31 + 3  # sums past the s32 range (wrap or saturate)
    cin = np.zeros(128, np.int32)
    for lane in range(32):
        for r in range(4):
            cin[lane * 4 + r] = C[c_pos(lane, r)]
    out = np.zeros(len(KINDS) * 128, np.int32)
    compile_source(source(shape), "m4.rs").mma4[(1,), (32,)](a, b, cin, out, device=device)
    want = np.zeros_like(out)
    for n, (ta, tb, sat) in enumerate(KINDS):
        A = as_signed(an, 4) if ta == "s4" else an
        B = as_signed(bn, 4) if tb == "s4" else bn
        D = s32_result(A @ B + C, sat)
        for lane in range(32):
            for r in range(4):
                want[(n * 32 + lane) * 4 + r] = D[c_pos(lane, r)]
    return out, want


@pytest.mark.parametrize("shape", list(SHAPES))
def test_int4_mma_on_the_simulator(shape, rng):
    out, want = run("sim", rng, shape)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_int4_mma_assembles(arch, assemble):
    for shape in SHAPES:
        try:
            ptx = driver.compile_source(source(shape), "m.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        assert f"mma.sync.aligned.{shape}.row.col" in ptx and ".s4.u4" in ptx
        assemble(ptx, arch)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", list(SHAPES))
def test_int4_mma_on_gpu(shape, rng):
    out, want = run("gpu", rng, shape)
    np.testing.assert_array_equal(out, want)


# -- 1-bit: popc of AND / XOR ---------------------------------------------------------------

B1 = {"m16n8k256": (256, 4, 2), "m16n8k128": (128, 2, 1)}


def b1_source(shape: str) -> str:
    k, na, nb = B1[shape]
    return mma_kernel("mma1", na, nb, [f"mma_{shape}_s32_b1_{op}_popc" for op in ("and", "xor")])


def b1_pos(shape, lane, r, e):
    g, t = lane // 4, lane % 4
    if shape == "m16n8k256":
        return (g + 8 * (r & 1), 32 * t + e + 128 * (r >> 1)), (32 * t + e + 128 * r, g)
    return (g + 8 * r, 32 * t + e), (32 * t + e, g)


def run_b1(device, rng, shape):
    k, na, nb = B1[shape]
    A = rng.integers(0, 2, (16, k))
    B = rng.integers(0, 2, (k, 8))
    a = np.zeros(32 * na, np.uint32)
    b = np.zeros(32 * nb, np.uint32)
    for lane in range(32):
        for r in range(na):
            a[lane * na + r] = sum(int(A[b1_pos(shape, lane, r, e)[0]]) << e for e in range(32))
        for r in range(nb):
            b[lane * nb + r] = sum(int(B[b1_pos(shape, lane, r, e)[1]]) << e for e in range(32))
    C = rng.integers(-1000, 1000, (16, 8))
    cin = np.zeros(128, np.int32)
    for lane in range(32):
        for r in range(4):
            cin[lane * 4 + r] = C[c_pos(lane, r)]
    out = np.zeros(2 * 128, np.int32)
    compile_source(b1_source(shape), "m1.rs").mma1[(1,), (32,)](a, b, cin, out, device=device)
    want = np.zeros_like(out)
    for n, D in enumerate((C + (A @ B), C + (A[:, :, None] ^ B[None, :, :]).sum(1))):
        for lane in range(32):
            for r in range(4):
                want[(n * 32 + lane) * 4 + r] = D[c_pos(lane, r)]
    return out, want


@pytest.mark.parametrize("shape", list(B1))
def test_b1_mma_on_the_simulator(shape, rng):
    out, want = run_b1("sim", rng, shape)
    np.testing.assert_array_equal(out, want)


def test_b1_mma_assembles(ptxas, tmp_path):
    for shape in B1:
        ptx = driver.compile_source(b1_source(shape), "m.rs", driver.Options()).ptx
        assert ".b1.b1.s32.and.popc" in ptx and ".b1.b1.s32.xor.popc" in ptx
        path = tmp_path / "m.ptx"
        path.write_text(ptx)
        r = subprocess.run([ptxas, "-arch=sm_80", str(path), "-o", str(tmp_path / "m.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("shape", list(B1))
def test_b1_mma_on_gpu(shape, rng):
    out, want = run_b1("gpu", rng, shape)
    np.testing.assert_array_equal(out, want)
