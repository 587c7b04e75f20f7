//! Weighted row sums of a row-major matrix, one thread per row, written twice:
//! - `row_sums_iter` with an iterator chain and closures:
//!   `(0..cols).map(|j| x[row + j] * weight(j)).sum()`;
//! - `row_sums_index`, the same sum as a hand-written index loop.
//! Both add the terms in the same order (j = 0, 1, ...), so they agree bit for bit; the
//! benchmark benchmarks/iter_vs_index.py times one against the other.
//! weight(j) = 1 + (j % 4) / 4: the weights 1, 1.25, 1.5, 1.75 repeat along a row.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn row_sums_iter(x: &[f32], cols: u32, mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let row = idx.get() * cols as usize;
        let quarter = 0.25f32;
        let weight = |j: usize| 1.0 + (j % 4) as f32 * quarter;
        if let Some(o) = out.get_mut(idx) {
            *o = (0..cols as usize).map(|j| x[row + j] * weight(j)).sum();
        }
    }

    #[kernel]
    pub fn row_sums_index(x: &[f32], cols: u32, mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let row = idx.get() * cols as usize;
        if let Some(o) = out.get_mut(idx) {
            let mut s = -0.0f32;
            let mut j = 0usize;
            while j < cols as usize {
                s += x[row + j] * (1.0 + (j % 4) as f32 * 0.25);
                j += 1;
            }
            *o = s;
        }
    }
}

fn main() {
    const ROWS: usize = 1 << 16;
    const COLS: u32 = 64;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/iter_reduce.ptx").unwrap();

    let n = ROWS * COLS as usize;
    let x_host: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 * 0.01 - 0.5).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut a = DeviceBuffer::<f32>::zeroed(&stream, ROWS).unwrap();
    let mut b = DeviceBuffer::<f32>::zeroed(&stream, ROWS).unwrap();

    cuda_launch! {
        kernel: kernels::row_sums_iter,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(ROWS as u32),
        args: [slice(x), COLS, slice_mut(a)]
    }
    .unwrap();
    cuda_launch! {
        kernel: kernels::row_sums_index,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(ROWS as u32),
        args: [slice(x), COLS, slice_mut(b)]
    }
    .unwrap();

    let a = a.to_host_vec(&stream).unwrap();
    let b = b.to_host_vec(&stream).unwrap();
    assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()));
    println!("iter_reduce: {} row sums agree; row 0 = {}", ROWS, a[0]);
}
