"""`uniform::Uniform<T>` (issue 11): launch-uniform scalars. `block_dim_x()` .. `grid_dim_z()`,
a `Uniform<u32>` kernel parameter (passed as the bare u32: #[repr(transparent)]),
`Uniform::new_unchecked` (unsafe), `get`, and the u32 arithmetic that keeps uniformity:
wrapping_add/sub/mul, saturating_add/sub, min, max, wrapping_mul_const / wrapping_add_const.
On the simulator against NumPy, through ptxas, and on the GPU."""
from __future__ import annotations

import numpy as np
import pytest

from oxidec.api import compile_source
from oxidec.diagnostics import CompileError, render_all

SRC = """
use cuda_device::uniform::{self, Uniform};
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn uniforms(k: Uniform<u32>, big: Uniform<u32>, mut out: DisjointSlice<u32>) {
    let bd = uniform::block_dim_x();
    let gd = uniform::grid_dim_x();
    let one = unsafe { Uniform::new_unchecked(1u32) };
    let r = [
        bd.get() | (gd.get() << 16),
        k.wrapping_add(big).get(),
        k.wrapping_sub(big).get(),
        k.wrapping_mul(big).get(),
        k.saturating_add(big).get(),
        k.saturating_sub(big).get(),
        big.saturating_sub(k).get(),
        k.min(big).get() ^ k.max(big).wrapping_add(one).get(),
        k.wrapping_mul_const::<7>().wrapping_add_const::<0xFFFF_FFF0>().get(),
        uniform::block_dim_y().get() + uniform::grid_dim_y().get() * 10
            + uniform::block_dim_z().get() * 100 + uniform::grid_dim_z().get() * 1000,
    ];
    let i = thread::index_1d().get();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = r[i % 10];
    }
}
"""

M = 2**32


def expected(k, big, block, grid, n):
    r = [block | (grid << 16), (k + big) % M, (k - big) % M, (k * big) % M,
         min(k + big, M - 1), max(k - big, 0), max(big - k, 0),
         min(k, big) ^ ((max(k, big) + 1) % M), (k * 7 + 0xFFFF_FFF0) % M, 1 + 10 + 100 + 1000]
    return np.array([r[i % 10] for i in range(n)], np.uint32)


def run(device, rng):
    block, grid = 64, int(rng.integers(2, 5))
    n = block * grid
    k = int(rng.integers(1, 2**32))
    big = int(rng.choice([int(rng.integers(1, 2**32)), 2**32 - 1 - k // 2]))
    out = np.full(n, 0xDEAD_BEEF, np.uint32)
    compile_source(SRC, "u.rs").uniforms[(grid,), (block,)](k, big, out, device=device)
    return out, expected(k, big, block, grid, n)


def test_uniform_on_the_simulator(rng):
    for _ in range(3):
        got, want = run("sim", rng)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_uniform_assembles(arch, assemble):
    assemble(compile_source(SRC, "u.rs", arch=arch).ptx, arch)


def test_uniform_needs_unsafe_and_u32_ops():
    for bad, needle in (
            (SRC.replace("unsafe { Uniform::new_unchecked(1u32) }", "Uniform::new_unchecked(1u32)"),
             "error[E0133]"),
            (SRC.replace("fn uniforms(k: Uniform<u32>", "fn uniforms(k: Uniform<u64>"),
             "error[E0599]: no method named `wrapping_add` found for `Uniform<u64>`")):
        with pytest.raises(CompileError) as info:
            compile_source(bad, "u.rs")
        assert needle in render_all(info.value.diagnostics)


@pytest.mark.gpu
def test_uniform_on_gpu(rng):
    got, want = run("gpu", rng)
    np.testing.assert_array_equal(got, want)
