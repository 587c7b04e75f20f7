//! Two element-wise activations in one module: relu and clamp, each written with
//! `if`/`else` as an expression.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn relu(x: &[f32], mut y: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(out) = y.get_mut(idx) {
            let v = x[i];
            *out = if v > 0.0 { v } else { 0.0 };
        }
    }

    #[kernel]
    pub fn clamp(x: &[f32], lo: f32, hi: f32, mut y: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(out) = y.get_mut(idx) {
            let v = x[i];
            *out = if v < lo {
                lo
            } else if v > hi {
                hi
            } else {
                v
            };
        }
    }
}

fn main() {
    const N: usize = 100_003;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/relu.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| (i as f32 - 50_000.0) * 1.0e-4).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut relu_out = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();
    let mut clamp_out = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::relu,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), slice_mut(relu_out)]
    }
    .unwrap();

    cuda_launch! {
        kernel: kernels::clamp,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), -1.0f32, 1.0f32, slice_mut(clamp_out)]
    }
    .unwrap();

    let r = relu_out.to_host_vec(&stream).unwrap();
    let c = clamp_out.to_host_vec(&stream).unwrap();
    let positive = r.iter().filter(|v| **v > 0.0).count();
    println!("relu: {} of {} positive; clamp: first {} last {}", positive, N, c[0], c[N - 1]);
}
