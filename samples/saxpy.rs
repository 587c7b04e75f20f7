//! out[i] = a * x[i] + y[i] (BLAS saxpy). A DisjointSlice is write-only for the
//! thread that owns an element, so y comes in as a read-only slice and the result
//! goes to a separate output buffer.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            // Contracted to one fma.rn.f32 unless fma contraction is turned off.
            *o = a * x[i] + y[i];
        }
    }
}

fn main() {
    const N: usize = 1 << 24;
    let a = 2.5f32;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/saxpy.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 0.001).collect();
    let y_host: Vec<f32> = (0..N).map(|i| 1.0 - (i % 7) as f32).collect();

    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let y = DeviceBuffer::from_host(&stream, &y_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::saxpy,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [a, slice(x), slice(y), slice_mut(out)]
    }
    .unwrap();

    let out_host = out.to_host_vec(&stream).unwrap();
    let mut max_err = 0.0f32;
    for i in 0..N {
        let want = a.mul_add(x_host[i], y_host[i]);
        max_err = max_err.max((out_host[i] - want).abs());
    }
    println!("saxpy: {} elements, max abs error {:e}", N, max_err);
}
