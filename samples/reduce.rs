//! Sum of a vector: each block reduces a grid-stride share of x through a shared-memory
//! tree and a warp-shuffle tail, then adds its partial sum to `total[0]` with one atomic.
//! `total` must hold 0.0 (or the running total) before the launch.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicF32};
use cuda_device::{cuda_module, kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BLOCK: usize = 256;

    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1), requires = (total.len() == 1))]
    pub fn reduce_sum(x: &[f32], total: DisjointSlice<f32>) {
        static mut SUMS: SharedArray<f32, BLOCK> = SharedArray::UNINIT;
        let tid = thread::threadIdx_x() as usize;
        let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;

        // 1. Each thread sums its grid-stride subsequence of x.
        let mut acc = 0.0f32;
        let mut i = thread::blockIdx_x() as usize * BLOCK + tid;
        while i < x.len() {
            acc += x[i];
            i += stride;
        }
        unsafe {
            SUMS[tid] = acc;
        }
        thread::sync_threads();

        // 2. A tree in shared memory, down to 64 partial sums.
        let mut half = BLOCK / 2;
        while half >= 64 {
            if tid < half {
                unsafe {
                    SUMS[tid] += SUMS[tid + half];
                }
            }
            thread::sync_threads();
            half /= 2;
        }

        // 3. The first warp finishes with shuffles; its lane 0 adds the block's sum.
        if tid < 32 {
            let mut v = unsafe { SUMS[tid] + SUMS[tid + 32] };
            let mut offset = 16u32;
            while offset > 0 {
                v += warp::shuffle_down_f32(v, offset);
                offset /= 2;
            }
            if tid == 0 {
                let sum = DeviceAtomicF32::from_slice_elem(&total, 0);
                sum.fetch_add(v, AtomicOrdering::Relaxed);
            }
        }
    }
}

fn main() {
    const N: usize = 1 << 24;
    const BLOCKS: u32 = 264;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/reduce.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| ((i % 1000) as f32) * 0.001).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut total = DeviceBuffer::<f32>::zeroed(&stream, 1).unwrap();

    let config = LaunchConfig {
        grid_dim: (BLOCKS, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::reduce_sum,
        stream: stream,
        module: module,
        config: config,
        args: [slice(x), slice_mut(total)]
    }
    .unwrap();

    let got = total.to_host_vec(&stream).unwrap()[0];
    let want: f64 = x_host.iter().map(|v| *v as f64).sum();
    println!("reduce_sum: {} (host {})", got, want);
}
