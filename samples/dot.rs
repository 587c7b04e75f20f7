//! Dot products: every thread sums a grid-stride share of a[i] * b[i], each warp adds its
//! 32 partial sums with butterfly shuffles (every lane ends with the warp's sum), and lane 0
//! of each warp adds it to `result[0]` with one atomic (f32 and f64 versions).
//! `result` must hold 0 before the launch.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicF32, DeviceAtomicF64};
use cuda_device::{cuda_module, kernel, thread, warp, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn dot(a: &[f32], b: &[f32], result: DisjointSlice<f32>) {
        let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
        let mut i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
        let mut acc = 0.0f32;
        while i < a.len() {
            acc = a[i].mul_add(b[i], acc);
            i += stride;
        }
        let mut mask = 16u32;
        while mask > 0 {
            acc += warp::shuffle_xor_f32(acc, mask);
            mask /= 2;
        }
        if warp::lane_id() == 0 {
            DeviceAtomicF32::from_slice_elem(&result, 0).fetch_add(acc, AtomicOrdering::Relaxed);
        }
    }

    #[kernel]
    pub fn dot_f64(a: &[f64], b: &[f64], result: DisjointSlice<f64>) {
        let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
        let mut i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
        let mut acc = 0.0f64;
        while i < a.len() {
            acc = a[i].mul_add(b[i], acc);
            i += stride;
        }
        let mut mask = 16u32;
        while mask > 0 {
            acc += warp::shuffle_xor_f64(acc, mask);
            mask /= 2;
        }
        if warp::lane_id() == 0 {
            DeviceAtomicF64::from_slice_elem(&result, 0).fetch_add(acc, AtomicOrdering::Relaxed);
        }
    }
}

fn main() {
    const N: usize = 1 << 22;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/dot.ptx").unwrap();

    let a_host: Vec<f32> = (0..N).map(|i| ((i % 7) as f32) - 3.0).collect();
    let b_host: Vec<f32> = (0..N).map(|i| ((i % 5) as f32) * 0.5).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut result = DeviceBuffer::<f32>::zeroed(&stream, 1).unwrap();

    let config = LaunchConfig {
        grid_dim: (256, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::dot,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(b), slice_mut(result)]
    }
    .unwrap();

    let got = result.to_host_vec(&stream).unwrap()[0];
    let want: f64 = a_host.iter().zip(&b_host).map(|(x, y)| (*x as f64) * (*y as f64)).sum();
    println!("dot: {} (host {})", got, want);
}
