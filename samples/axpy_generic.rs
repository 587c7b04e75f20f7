//! out[i] = a * x[i] + y[i] for any number type: one generic kernel, instantiated for f32 and
//! f64 by the two launches in `main` (`axpy::<f32>`, `axpy::<f64>`), which oxidec compiles to
//! the PTX entries `axpy_f32` and `axpy_f64`. The arithmetic is a generic helper whose bounds
//! say what it needs of `T`.
use core::ops::{Add, Mul};
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    /// `a * x + y` in `T` (contracted to one fma when fma contraction is on).
    fn scaled_sum<T>(a: T, x: T, y: T) -> T
    where
        T: Copy + Add<Output = T> + Mul<Output = T>,
    {
        a * x + y
    }

    #[kernel]
    pub fn axpy<T: Copy + Add<Output = T> + Mul<Output = T>>(
        a: T,
        x: &[T],
        y: &[T],
        mut out: DisjointSlice<T>,
    ) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            *o = scaled_sum(a, x[i], y[i]);
        }
    }
}

fn main() {
    const N: usize = 1 << 20;
    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/axpy_generic.ptx").unwrap();

    let x32: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 0.001).collect();
    let y32: Vec<f32> = (0..N).map(|i| 1.0 - (i % 7) as f32).collect();
    let x = DeviceBuffer::from_host(&stream, &x32).unwrap();
    let y = DeviceBuffer::from_host(&stream, &y32).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();
    cuda_launch! {
        kernel: kernels::axpy::<f32>,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [2.5f32, slice(x), slice(y), slice_mut(out)]
    }
    .unwrap();

    let x64: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
    let y64: Vec<f64> = y32.iter().map(|&v| v as f64).collect();
    let x = DeviceBuffer::from_host(&stream, &x64).unwrap();
    let y = DeviceBuffer::from_host(&stream, &y64).unwrap();
    let mut out64 = DeviceBuffer::<f64>::zeroed(&stream, N).unwrap();
    cuda_launch! {
        kernel: kernels::axpy::<f64>,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [2.5f64, slice(x), slice(y), slice_mut(out64)]
    }
    .unwrap();

    let got32 = out.to_host_vec(&stream).unwrap();
    let got64 = out64.to_host_vec(&stream).unwrap();
    let mut max_err = 0.0f64;
    for i in 0..N {
        let want = 2.5 * x64[i] + y64[i];
        max_err = max_err.max((got32[i] as f64 - want).abs()).max((got64[i] - want).abs());
    }
    println!("axpy_generic: {} elements in f32 and f64, max abs error {:e}", N, max_err);
}
