//! Row softmax of a rows x cols f32 matrix: one block of 256 threads per row. The block finds
//! the row's maximum, then the sum of exp(x - max), each with a per-thread pass over a strided
//! share of the row, warp shuffles and a shared-memory exchange between the 8 warps, and
//! finally writes exp(x - max) / sum.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BLOCK: usize = 256;
    const WARPS: usize = 8;

    /// The maximum (max = true) or the sum of `v` over the block; every thread gets it.
    #[device]
    fn block_reduce(v: f32, max: bool) -> f32 {
        static mut SCRATCH: SharedArray<f32, WARPS> = SharedArray::UNINIT;
        let lane = warp::lane_id();
        let mut x = v;
        let mut mask = 16u32;
        while mask > 0 {
            let other = warp::shuffle_xor_f32(x, mask);
            x = if max { x.max(other) } else { x + other };
            mask /= 2;
        }
        if lane == 0 {
            unsafe {
                SCRATCH[warp::warp_id() as usize] = x;
            }
        }
        thread::sync_threads();
        let mut r = unsafe { SCRATCH[0] };
        for w in 1..WARPS {
            let y = unsafe { SCRATCH[w] };
            r = if max { r.max(y) } else { r + y };
        }
        thread::sync_threads(); // the scratch is reused by the next reduction
        r
    }

    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1), requires = (x.len() == rows * cols, out.len() == rows * cols))]
    pub fn softmax(x: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize) {
        let t = thread::threadIdx_x() as usize;
        let row = thread::blockIdx_x() as usize;
        // `row` is the same for every thread of the block: all of them or none reach the
        // barriers in block_reduce (and the guard proves every index below x.len())
        if row < rows {
            let base = row * cols;

            let mut m = f32::NEG_INFINITY;
            let mut j = t;
            while j < cols {
                m = m.max(x[base + j]);
                j += BLOCK;
            }
            let m = block_reduce(m, true);

            let mut s = 0.0f32;
            let mut j = t;
            while j < cols {
                s += (x[base + j] - m).exp();
                j += BLOCK;
            }
            let s = block_reduce(s, false);

            let mut j = t;
            while j < cols {
                // Sound: element (row, j) is written by thread j % BLOCK of block `row` only.
                unsafe {
                    *out.get_unchecked_mut(base + j) = (x[base + j] - m).exp() / s;
                }
                j += BLOCK;
            }
        }
    }
}

fn main() {
    const ROWS: usize = 4096;
    const COLS: usize = 1000;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/softmax.ptx").unwrap();

    let x_host: Vec<f32> = (0..ROWS * COLS).map(|i| ((i % 37) as f32) * 0.1 - 1.8).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: (ROWS as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::softmax,
        stream: stream,
        module: module,
        config: config,
        args: [slice(x), slice_mut(out), ROWS, COLS]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    let row0: f32 = got[..COLS].iter().sum();
    println!("softmax: row 0 sums to {}", row0);
}
