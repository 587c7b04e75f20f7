//! C = A * B for n x n row-major f32 matrices: one thread per element of C on a grid
//! of 16x16 blocks, each thread walking a row of A and a column of B.
//!
//! n is only known at run time, so the output index is computed by hand and written
//! through `get_unchecked_mut` behind an explicit bounds check (the safe
//! `thread::index_2d::<S>()` needs the row stride as a constant).
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn matmul_naive(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>, n: usize) {
        let row = (thread::blockIdx_y() * thread::blockDim_y() + thread::threadIdx_y()) as usize;
        let col = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
        if row < n && col < n {
            let mut acc = 0.0f32;
            for k in 0..n {
                acc += a[row * n + k] * b[k * n + col];
            }
            // Sound: each (row, col) belongs to exactly one thread, and row * n + col < n * n.
            unsafe {
                *c.get_unchecked_mut(row * n + col) = acc;
            }
        }
    }
}

fn main() {
    const N: usize = 1024;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/matmul_naive.ptx").unwrap();

    let a_host: Vec<f32> = (0..N * N).map(|i| ((i % 17) as f32 - 8.0) * 0.125).collect();
    let b_host: Vec<f32> = (0..N * N).map(|i| ((i % 13) as f32 - 6.0) * 0.25).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut c = DeviceBuffer::<f32>::zeroed(&stream, N * N).unwrap();

    let blocks = ((N + 15) / 16) as u32;
    let config = LaunchConfig {
        grid_dim: (blocks, blocks, 1),
        block_dim: (16, 16, 1),
        shared_mem_bytes: 0,
    };

    cuda_launch! {
        kernel: kernels::matmul_naive,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(b), slice_mut(c), N]
    }
    .unwrap();

    let c_host = c.to_host_vec(&stream).unwrap();
    let (r, s) = (N / 3, N / 7);
    let mut want = 0.0f32;
    for k in 0..N {
        want += a_host[r * N + k] * b_host[k * N + s];
    }
    println!("matmul_naive: c[{}][{}] = {} (host {})", r, s, c_host[r * N + s], want);
}
