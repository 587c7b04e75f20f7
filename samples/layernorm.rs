//! Layer normalisation of each row of a rows x cols f32 matrix, as transformer layers apply it:
//!     out[r][c] = (x[r][c] - mean_r) / sqrt(var_r + eps) * gamma[c] + beta[c]
//! with the row's mean and (biased) variance. One block of 256 threads per row: every thread
//! sums a strided share of the row, the block adds the 256 partial sums (butterfly shuffles in
//! each warp, then the 8 warps' sums through shared memory); a second pass sums the squared
//! deviations from the mean (two passes: no cancellation), and a third writes the result.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BLOCK: usize = 256;
    const WARPS: usize = 8;

    /// The sum of `v` over the block, in the same order on every thread.
    #[device]
    fn block_sum(v: f32) -> f32 {
        static mut PARTIAL: SharedArray<f32, WARPS> = SharedArray::UNINIT;
        let mut s = v;
        let mut offset = 16u32;
        while offset > 0 {
            s += warp::shuffle_xor_f32(s, offset);
            offset /= 2;
        }
        if warp::lane_id() == 0 {
            unsafe {
                PARTIAL[warp::warp_id() as usize] = s;
            }
        }
        thread::sync_threads();
        let mut total = 0.0f32;
        for w in 0..WARPS {
            total += unsafe { PARTIAL[w] };
        }
        thread::sync_threads(); // PARTIAL is reused by the next sum
        total
    }

    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1),
                      requires = (x.len() == rows * cols, out.len() == rows * cols,
                                  gamma.len() == cols, beta.len() == cols))]
    pub fn layernorm(x: &[f32], gamma: &[f32], beta: &[f32], mut out: DisjointSlice<f32>,
                     rows: usize, cols: usize, eps: f32) {
        let t = thread::threadIdx_x() as usize;
        let row = thread::blockIdx_x() as usize;
        // `row` is the same for every thread of the block: all of them or none reach the
        // barriers in block_sum
        if row < rows {
            let base = row * cols;

            let mut sum = 0.0f32;
            let mut j = t;
            while j < cols {
                sum += x[base + j];
                j += BLOCK;
            }
            let mean = block_sum(sum) / cols as f32;

            let mut squares = 0.0f32;
            let mut j = t;
            while j < cols {
                let d = x[base + j] - mean;
                squares = d.mul_add(d, squares);
                j += BLOCK;
            }
            let rstd = 1.0 / (block_sum(squares) / cols as f32 + eps).sqrt();

            let mut j = t;
            while j < cols {
                // Sound: element (row, j) is written by thread j % BLOCK of block `row` only.
                unsafe {
                    *out.get_unchecked_mut(base + j) = ((x[base + j] - mean) * rstd).mul_add(gamma[j], beta[j]);
                }
                j += BLOCK;
            }
        }
    }
}

fn main() {
    const ROWS: usize = 4096;
    const COLS: usize = 1024;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/layernorm.ptx").unwrap();

    let x_host: Vec<f32> = (0..ROWS * COLS).map(|i| ((i % 29) as f32) * 0.1 - 1.4).collect();
    let g_host: Vec<f32> = (0..COLS).map(|i| 1.0 + ((i % 7) as f32) * 0.01).collect();
    let b_host: Vec<f32> = (0..COLS).map(|i| ((i % 5) as f32) * 0.1).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let gamma = DeviceBuffer::from_host(&stream, &g_host).unwrap();
    let beta = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: (ROWS as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::layernorm,
        stream: stream,
        module: module,
        config: config,
        args: [slice(x), slice(gamma), slice(beta), slice_mut(out), ROWS, COLS, 1e-5f32]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    println!("layernorm: out[0][0] = {}", got[0]);
}
