//! RMS normalisation of each row of a rows x cols f32 matrix, as transformer layers apply it:
//!     out[r][c] = x[r][c] / sqrt(mean over c of x[r][c]^2 + eps) * w[c]
//! One block of 256 threads per row: every thread sums the squares of a strided share of the
//! row, the block adds the 256 partial sums (butterfly shuffles in each warp, then the 8 warps'
//! sums through shared memory), and every thread scales its share by the row's factor.
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
        static mut WARP_SUMS: SharedArray<f32, WARPS> = SharedArray::UNINIT;
        let mut s = v;
        let mut offset = 16u32;
        while offset > 0 {
            s += warp::shuffle_xor_f32(s, offset);
            offset /= 2;
        }
        if warp::lane_id() == 0 {
            unsafe {
                WARP_SUMS[warp::warp_id() as usize] = s;
            }
        }
        thread::sync_threads();
        let mut total = 0.0f32;
        for w in 0..WARPS {
            total += unsafe { WARP_SUMS[w] };
        }
        total
    }

    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1),
                      requires = (x.len() == rows * cols, out.len() == rows * cols, w.len() == cols))]
    pub fn rmsnorm(x: &[f32], w: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize, eps: f32) {
        let t = thread::threadIdx_x() as usize;
        let row = thread::blockIdx_x() as usize;
        // `row` is the same for every thread of the block: all of them or none reach the
        // barrier in block_sum
        if row < rows {
            let base = row * cols;

            let mut squares = 0.0f32;
            let mut j = t;
            while j < cols {
                let v = x[base + j];
                squares = v.mul_add(v, squares);
                j += BLOCK;
            }
            let total = block_sum(squares);
            let scale = 1.0 / (total / cols as f32 + eps).sqrt();

            let mut j = t;
            while j < cols {
                // Sound: element (row, j) is written by thread j % BLOCK of block `row` only.
                unsafe {
                    *out.get_unchecked_mut(base + j) = x[base + j] * scale * w[j];
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
    let module = ctx.load_module_from_file("build/rmsnorm.ptx").unwrap();

    let x_host: Vec<f32> = (0..ROWS * COLS).map(|i| ((i % 29) as f32) * 0.1 - 1.4).collect();
    let w_host: Vec<f32> = (0..COLS).map(|i| 1.0 + ((i % 7) as f32) * 0.01).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let w = DeviceBuffer::from_host(&stream, &w_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: (ROWS as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::rmsnorm,
        stream: stream,
        module: module,
        config: config,
        args: [slice(x), slice(w), slice_mut(out), ROWS, COLS, 1e-6f32]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    println!("rmsnorm: out[0][0] = {}", got[0]);
}
