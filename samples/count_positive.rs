//! Counting the positive elements of x without atomics, two ways:
//! - `positive_flags` writes flags[i] = 1 if x[i] > 0 else 0 (the host sums them);
//! - `count_positive` has each thread count a grid-stride subsequence of x
//!   (x[t], x[t + T], x[t + 2T], ... for T threads in all) into partial[t].
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn positive_flags(x: &[f32], mut flags: DisjointSlice<u32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(f) = flags.get_mut(idx) {
            *f = if x[i] > 0.0 { 1 } else { 0 };
        }
    }

    #[kernel]
    pub fn count_positive(x: &[f32], mut partial: DisjointSlice<u32>) {
        let idx = thread::index_1d();
        let start = idx.get();
        let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
        if let Some(count) = partial.get_mut(idx) {
            let mut c = 0u32;
            for j in (start..x.len()).step_by(stride) {
                if x[j] <= 0.0 {
                    continue;
                }
                c += 1;
            }
            *count = c;
        }
    }
}

fn main() {
    const N: usize = 10_000_019;
    const BLOCKS: u32 = 264;
    const THREADS: u32 = 256;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/count_positive.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| ((i * 7919) % 1000) as f32 - 499.5).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut flags = DeviceBuffer::<u32>::zeroed(&stream, N).unwrap();
    let mut partial = DeviceBuffer::<u32>::zeroed(&stream, (BLOCKS * THREADS) as usize).unwrap();

    cuda_launch! {
        kernel: kernels::positive_flags,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), slice_mut(flags)]
    }
    .unwrap();

    let config = LaunchConfig {
        grid_dim: (BLOCKS, 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::count_positive,
        stream: stream,
        module: module,
        config: config,
        args: [slice(x), slice_mut(partial)]
    }
    .unwrap();

    let from_flags: u64 = flags.to_host_vec(&stream).unwrap().iter().map(|f| *f as u64).sum();
    let from_partials: u64 = partial.to_host_vec(&stream).unwrap().iter().map(|c| *c as u64).sum();
    assert_eq!(from_flags, from_partials);
    println!("count_positive: {} of {} elements are positive", from_flags, N);
}
