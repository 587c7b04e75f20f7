//! A batch of small matrix-vector products, y_b = A_b x_b for b in 0..batch, each A_b an
//! m x n row-major f32 matrix (stored one after the other), x_b of n and y_b of m elements
//! (as in attention decoding with one query per head). One warp per output row: the lanes
//! read the row's strided elements (each read of the warp is 128 contiguous bytes), then add
//! their 32 partial sums with butterfly shuffles; 8 rows of one matrix per block of 256
//! threads, grid (ceil(m / 8), batch).
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, warp, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BLOCK: usize = 256;
    const WARPS: usize = 8;

    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1),
                      requires = (a.len() == batch * m * n, x.len() == batch * n, y.len() == batch * m))]
    pub fn gemv_batched(a: &[f32], x: &[f32], mut y: DisjointSlice<f32>, batch: usize, m: usize, n: usize) {
        let lane = warp::lane_id() as usize;
        let b = thread::blockIdx_y() as usize;
        let i = thread::blockIdx_x() as usize * WARPS + warp::warp_id() as usize;
        // `i` and `b` are the same on every lane of a warp: all 32 or none take part in the
        // shuffles
        if b < batch && i < m {
            let mut acc = 0.0f32;
            let mut j = lane;
            while j < n {
                acc = a[(b * m + i) * n + j].mul_add(x[b * n + j], acc);
                j += 32;
            }
            let mut mask = 16u32;
            while mask > 0 {
                acc += warp::shuffle_xor_f32(acc, mask);
                mask /= 2;
            }
            if lane == 0 {
                // Sound: row i of matrix b belongs to this warp only, and b * m + i < batch * m.
                unsafe {
                    *y.get_unchecked_mut(b * m + i) = acc;
                }
            }
        }
    }
}

fn main() {
    const BATCH: usize = 64;
    const M: usize = 128;
    const N: usize = 128;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/gemv_batched.ptx").unwrap();

    let a_host: Vec<f32> = (0..BATCH * M * N).map(|i| ((i % 17) as f32) * 0.125 - 1.0).collect();
    let x_host: Vec<f32> = (0..BATCH * N).map(|i| ((i % 11) as f32) * 0.25 - 1.25).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(&stream, BATCH * M).unwrap();

    let config = LaunchConfig {
        grid_dim: ((M / 8) as u32, BATCH as u32, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::gemv_batched,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(x), slice_mut(y), BATCH, M, N]
    }
    .unwrap();

    let got = y.to_host_vec(&stream).unwrap();
    println!("gemv_batched: y[0] = {}", got[0]);
}
