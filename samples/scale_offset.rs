//! out[i] = x[i] * scale + offset, through a `#[device]` helper that the kernel calls.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    /// The affine map v -> v * scale + offset.
    #[device]
    fn affine(v: f32, scale: f32, offset: f32) -> f32 {
        v * scale + offset
    }

    #[kernel]
    pub fn scale_offset(x: &[f32], scale: f32, offset: f32, mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            *o = affine(x[i], scale, offset);
        }
    }
}

fn main() {
    const N: usize = 100_003;
    let scale = 0.5f32;
    let offset = -3.0f32;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/scale_offset.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::scale_offset,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), scale, offset, slice_mut(out)]
    }
    .unwrap();

    let out_host = out.to_host_vec(&stream).unwrap();
    println!("scale_offset: out[0] = {}, out[{}] = {}", out_host[0], N - 1, out_host[N - 1]);
}
