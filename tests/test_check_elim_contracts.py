"""check_elim with launch contracts: `requires (w.len() == 9)` (checked by the kernel at entry)
proves the constant indices of an unrolled 3x3 loop, and a row-major index built from block
and thread indices plus offsets (a 3x3 convolution's `(r + i - 1) * cols + (c + j - 1)`,
a key of about 30 nodes) is proven by `img.len() == rows * cols` and the guard on its row
and column. The checks that nothing proves stay: the same kernels without the contract, or
with a guard that does not bound the index, keep their bounds checks (and trap)."""
import numpy as np
import pytest

from oxidec import driver

NO_VERSIONS = driver.Options(index32=False)  # one version of each kernel (index32.py)

CONV = """
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};
#[kernel]
#[launch_contract(block = (16, 16, 1), requires = (img.len() == rows * cols, out.len() == rows * cols, w.len() == 9))]
pub fn conv(img: &[f32], w: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize) {
    let c = thread::blockIdx_x() as usize * 16 + thread::threadIdx_x() as usize;
    let r = thread::blockIdx_y() as usize * 16 + thread::threadIdx_y() as usize;
    if r < rows && c < cols {
        let mut acc = 0.0f32;
        for i in 0..3 {
            for j in 0..3 {
                let rr = (r + i).wrapping_sub(1);
                let cc = (c + j).wrapping_sub(1);
                let v = if rr < ROWS_GUARD && cc < cols { img[rr * cols + cc] } else { 0.0 };
                acc = w[3 * i + j].mul_add(v, acc);
            }
        }
        unsafe { *out.get_unchecked_mut(r * cols + c) = acc; }
    }
}
"""


def _ptx(src: str) -> str:
    return driver.compile_source(src, "c.rs", driver.Options(line_info=False, index32=False)).ptx


def _bounds_checks(ptx: str) -> int:
    """Bounds checks left: the branches to the shared bounds-check trap (the contract's entry
    checks have traps of their own, with a message)."""
    return ptx.count("bra \t$L__BB0_trap;")


def test_contract_lengths_prove_the_convolution_indices() -> None:
    assert _bounds_checks(_ptx(CONV.replace("ROWS_GUARD", "rows"))) == 0


def test_unproven_indices_keep_their_checks() -> None:
    # rr < rows + 1 does not bound rr * cols + cc below rows * cols: 9 image checks stay
    assert _bounds_checks(_ptx(CONV.replace("ROWS_GUARD", "rows + 1"))) == 9
    # w.len() == 10 proves nothing more than w.len() == 9 would, w.len() >= 9 is no equality
    loose = CONV.replace("ROWS_GUARD", "rows").replace("w.len() == 9", "w.len() >= 9")
    assert _bounds_checks(_ptx(loose)) == 9


@pytest.mark.parametrize("guard", ["rows", "rows + 1"])
def test_convolution_runs_as_numpy(guard: str, rng) -> None:
    from oxidec.sim import run_kernel
    prog = driver.compile_source(CONV.replace("ROWS_GUARD", guard), "c.rs", NO_VERSIONS).program
    rows, cols = 21, 37
    img = rng.uniform(-1, 1, rows * cols).astype(np.float32)
    w = rng.uniform(-1, 1, 9).astype(np.float32)
    out = np.full(rows * cols, np.nan, np.float32)
    grid = ((cols + 15) // 16, (rows + 15) // 16, 1)
    if guard != "rows":  # the bottom row's taps reach row `rows`: out of bounds, a trap
        with pytest.raises(Exception):
            run_kernel(prog, "conv", grid, (16, 16, 1), [img, w, out, np.uint64(rows), np.uint64(cols)])
        return
    run_kernel(prog, "conv", grid, (16, 16, 1), [img, w, out, np.uint64(rows), np.uint64(cols)])
    pad = np.zeros((rows + 2, cols + 2))
    pad[1:-1, 1:-1] = img.reshape(rows, cols)
    want = sum(float(w[3 * i + j]) * pad[i:i + rows, j:j + cols] for i in range(3) for j in range(3))
    np.testing.assert_allclose(out.reshape(rows, cols), want, rtol=0, atol=1e-5)


BATCHED = """
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};
#[kernel]
#[launch_contract(block = (32, 1, 1), requires = (a.len() == batch * m * n, y.len() == batch * m))]
pub fn rows(a: &[f32], mut y: DisjointSlice<f32>, batch: usize, m: usize, n: usize) {
    let b = thread::blockIdx_y() as usize;
    let i = thread::blockIdx_x() as usize;
    if b < batch && i < ROW_GUARD {
        let mut s = 0.0f32;
        let mut j = thread::threadIdx_x() as usize;
        while j < n {
            s += a[(b * m + i) * n + j];
            j += 32;
        }
        if thread::threadIdx_x() == 0 && i < m {
            unsafe { *y.get_unchecked_mut(b * m + i) = s; }
        }
    }
}
"""


def test_a_batch_of_matrices_is_row_major_twice() -> None:
    """(b * m + i) * n + j < batch * m * n from b < batch, i < m, j < n: the row index
    b * m + i is itself a row-major index of batch * m."""
    assert _bounds_checks(_ptx(BATCHED.replace("ROW_GUARD", "m"))) == 0
    assert _bounds_checks(_ptx(BATCHED.replace("ROW_GUARD", "m + 1"))) >= 1


@pytest.mark.parametrize("guard", ["m", "m + 1"])
def test_batched_rows_run_as_numpy(guard: str, rng) -> None:
    from oxidec.sim import run_kernel
    prog = driver.compile_source(BATCHED.replace("ROW_GUARD", guard), "b.rs", NO_VERSIONS).program
    batch, m, n = 3, 5, 70
    a = rng.uniform(-1, 1, batch * m * n).astype(np.float32)
    y = np.full(batch * m, np.nan, np.float32)
    args = [a, y, np.uint64(batch), np.uint64(m), np.uint64(n)]
    if guard != "m":  # row i = m of the last matrix reads past the end of a: a trap
        with pytest.raises(Exception):
            run_kernel(prog, "rows", (m + 1, batch, 1), (32, 1, 1), args)
        return
    run_kernel(prog, "rows", (m, batch, 1), (32, 1, 1), args)
    # thread 0's strided share of each row: columns 0, 32, 64
    want = a.reshape(batch, m, n)[:, :, ::32].astype(np.float64).sum(axis=2).ravel()
    np.testing.assert_allclose(y, want, rtol=0, atol=1e-4)
