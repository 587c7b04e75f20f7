"""Sparse (2:4) integer MMA (issue 11): `wmma::mma_sp_m16n8k{32,64}_s32_{s8,u8}..` and
`mma_sp_m16n8k{64,128}_s32_{s4,u4}..`, plain and `_ordered_metadata`, also under their
`cuda_intrinsics::matrix::` names. A is passed compressed (the fragment of the dense shape
with k/2: the two kept values of every group of four, of four pairs for 4-bit types), with a
metadata word of 2-bit indices of the kept columns and an immediate selector. The NumPy
reference decompresses A with one pattern for every group and multiplies; every lane passes
the same metadata, which makes the result independent of which lanes supply it (the case
the simulator runs). On the simulator, through ptxas, and on the GPU (every pattern)."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

from int_mma import as_signed, c_pos, s32_result

# shape name -> (k, element width, registers of A and of B, selector)
SHAPES = {"m16n8k32_s8": (32, 8, 2, 1), "m16n8k64_s8": (64, 8, 4, 0),
          "m16n8k64_s4": (64, 4, 2, 1), "m16n8k128_s4": (128, 4, 4, 0)}
PATTERNS = {0x4: (0, 1), 0x8: (0, 2), 0xC: (0, 3), 0x9: (1, 2), 0xD: (1, 3), 0xE: (2, 3)}


def kinds(shape):
    k, w, _n, _sel = SHAPES[shape]
    s, u = f"s{w}", f"u{w}"
    out = []
    for pre in ("mma_sp", "mma_sp_ordered_metadata"):
        for a in (s, u):
            for b in (s, u):
                for sat in (False, True):
                    name = f"{pre}_m16n8k{k}_s32_{a if a == b else a + '_' + b}" + \
                        ("_satfinite" if sat else "")
                    out.append((name, a == s, b == s, sat))
    return out


def source(shape, module="wmma"):
    k, w, n, sel = SHAPES[shape]
    regs = lambda v: "[" + ", ".join(f"{v}[lane * {n} + {j}]" for j in range(n)) + "]"
    calls = []
    for i, (fn, *_r) in enumerate(kinds(shape)):
        calls.append(f"""        let d = {module}::{fn}(c, av, bv, meta, {sel if i % 2 else 0});
        let mut j = 0;
        while j < 4 {{
            *out.add(({i} * 32 + lane) * 4 + j) = d[j];
            j += 1;
        }}""")
    use = "use cuda_device::wmma;" if module == "wmma" else "use cuda_intrinsics::matrix;"
    return f"""
use cuda_device::{{kernel, thread}};
{use}

#[kernel]
pub unsafe fn sparse(a: &[u32], b: &[u32], cin: &[i32], meta: u32, out: *mut i32) {{
    let lane = thread::threadIdx_x() as usize;
    let av = {regs('a')};
    let bv = {regs('b')};
    let c = [cin[lane * 4], cin[lane * 4 + 1], cin[lane * 4 + 2], cin[lane * 4 + 3]];
    unsafe {{
{chr(10).join(calls)}
    }}
}}
"""


def run(device, rng, shape, nibble, module="wmma"):
    k, w, n, _sel = SHAPES[shape]
    per = 32 // w
    Ac = rng.integers(0, 1 << w, (16, k // 2))  # raw bit patterns of the kept values
    B = rng.integers(0, 1 << w, (k, 8))
    a = np.zeros(32 * n, np.uint32)
    b = np.zeros(32 * n, np.uint32)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for r in range(n):
            row = g + 8 * r if n == 2 else g + 8 * (r & 1)
            col = per * t + (0 if n == 2 else 4 * per * (r >> 1))
            a[lane * n + r] = sum(int(Ac[row, col + e]) << (w * e) for e in range(per))
            b[lane * n + r] = sum(int(B[per * t + 4 * per * r + e, g]) << (w * e)
                                  for e in range(per))
    C = rng.integers(-2**31, 2**31, (16, 8))
    C[0, 0], C[9, 1] = 2**31 - 3, -2**31 + 2  # past the s32 range: wrap or saturate
    cin = np.array([C[c_pos(lane, r)] for lane in range(32) for r in range(4)], np.int32)
    ks = kinds(shape)
    out = np.full(len(ks) * 128, -0x2152_4111, np.int32)
    compile_source(source(shape, module), "sp.rs").sparse[(1,), (32,)](
        a, b, cin, np.uint32(nibble * 0x1111_1111), out, device=device)
    # decompress: group g of 4 (pairs of) columns keeps columns i0, i1
    i0, i1 = PATTERNS[nibble]
    chunk = 2 if w == 4 else 1
    Araw = np.zeros((16, k), np.int64)
    for g in range(k // (4 * chunk)):
        for kept, idx in ((0, i0), (1, i1)):
            Araw[:, (4 * g + idx) * chunk:(4 * g + idx + 1) * chunk] = \
                Ac[:, (2 * g + kept) * chunk:(2 * g + kept + 1) * chunk]
    want = np.zeros_like(out)
    for i, (_fn, sa, sb, sat) in enumerate(ks):
        A = as_signed(Araw, w) if sa else Araw
        Bv = as_signed(B, w) if sb else B
        D = s32_result(A @ Bv + C, sat)
        for lane in range(32):
            for r in range(4):
                want[(i * 32 + lane) * 4 + r] = D[c_pos(lane, r)]
    return out, want


@pytest.mark.parametrize("shape", list(SHAPES))
def test_sparse_mma_on_the_simulator(shape, rng):
    nibble = int(rng.choice(list(PATTERNS)))
    out, want = run("sim", rng, shape, nibble)
    np.testing.assert_array_equal(out, want)


def test_sparse_mma_intrinsics_names(rng):
    out, want = run("sim", rng, "m16n8k32_s8", 0xD, module="matrix")
    np.testing.assert_array_equal(out, want)


def test_sparse_metadata_that_differs_between_lanes_is_gpu_only(rng):
    src = source("m16n8k32_s8").replace("av, bv, meta,", "av, bv, meta + lane as u32,")
    m = compile_source(src, "sp.rs")
    with pytest.raises(Exception, match="sparse MMA only with the same metadata"):
        m.sparse[(1,), (32,)](np.ones(64, np.uint32), np.ones(64, np.uint32),
                              np.ones(128, np.int32), np.uint32(0x4444_4444),
                              np.zeros(16 * 128, np.int32), device="sim")


def test_sparse_selector_is_checked():
    src = source("m16n8k128_s4").replace("meta, 0)", "meta, 1)", 1)
    with pytest.raises(CompileError) as info:
        driver.compile_source(src, "sp.rs", driver.Options(arch="sm_80"))
    text = render_all(info.value.diagnostics)
    assert "error[OX0007]: the sparsity selector of `mma_sp_m16n8k128_s32_s4` is 0, not 1" \
        in text


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_sparse_mma_assembles(arch, assemble):
    for shape in SHAPES:
        try:
            ptx = driver.compile_source(source(shape), "sp.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        assert "mma.sp.sync.aligned" in ptx and "mma.sp::ordered_metadata.sync.aligned" in ptx
        assemble(ptx, arch)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("nibble", list(PATTERNS))
def test_sparse_mma_on_gpu(shape, nibble, rng):
    out, want = run("gpu", rng, shape, nibble)
    np.testing.assert_array_equal(out, want)
