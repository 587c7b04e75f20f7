//! An int8 dot product with `dp4a`: a and b hold four signed bytes per u32 word (as int8
//! quantised weights and activations are stored), every thread sums a grid-stride share of
//! the words with one `dp4a` each (four products and the running sum, exact in 32 bits
//! modulo 2^32), each warp adds its 32 sums with one `redux.sync`, and lane 0 of each warp adds
//! it to `result[0]` with one atomic. The sum is the two's-complement one (mod 2^32);
//! `result` must hold 0 before the launch.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicU32};
use cuda_device::{cuda_module, dotprod, kernel, thread, warp, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn dot_i8(a: &[u32], b: &[u32], result: DisjointSlice<u32>) {
        let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
        let mut i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
        let mut acc = 0i32;
        while i < a.len() {
            acc = dotprod::dp4a_s32(a[i], b[i], acc);
            i += stride;
        }
        let total = warp::redux_sync_add(u32::MAX, acc as u32);
        if warp::lane_id() == 0 {
            DeviceAtomicU32::from_slice_elem(&result, 0).fetch_add(total, AtomicOrdering::Relaxed);
        }
    }
}

fn main() {
    const N: usize = 1 << 22;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/dot_i8.ptx").unwrap();

    let a_host: Vec<u32> = (0..N).map(|i| (i as u32).wrapping_mul(2654435761)).collect();
    let b_host: Vec<u32> = (0..N).map(|i| (i as u32).wrapping_mul(40503) ^ 0x5a5a5a5a).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut result = DeviceBuffer::<u32>::zeroed(&stream, 1).unwrap();

    let config = LaunchConfig {
        grid_dim: (1056, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::dot_i8,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(b), slice_mut(result)]
    }
    .unwrap();

    let got = result.to_host_vec(&stream).unwrap();
    println!("dot_i8: {}", got[0] as i32);
}
