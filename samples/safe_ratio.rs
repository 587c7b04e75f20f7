//! Per-element math that can fail, written with `Option` and `Result`: helper functions
//! return `None` or an error instead of producing NaN or infinity, `?` passes a failure up,
//! and the kernels decide what each failure becomes with `match` and the combinators.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[derive(Clone, Copy)]
    pub enum Problem {
        NotPositive,
        TinyDivisor,
    }

    #[device]
    fn checked_rsqrt(v: f32) -> Option<f32> {
        if v > 0.0 { Some(1.0 / v.sqrt()) } else { None }
    }

    #[device]
    fn checked_div(a: f32, b: f32) -> Result<f32, Problem> {
        if b.abs() < 0.125 { Err(Problem::TinyDivisor) } else { Ok(a / b) }
    }

    /// 2 / (sqrt(a) * b), or why it cannot be computed.
    #[device]
    fn scaled_ratio(a: f32, b: f32) -> Result<f32, Problem> {
        let r = checked_rsqrt(a).ok_or(Problem::NotPositive)?;
        let q = checked_div(r, b)?;
        Ok(q * 2.0)
    }

    #[kernel]
    pub fn safe_ratio(a: &[f32], b: &[f32], mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            *o = match scaled_ratio(a[i], b[i]) {
                Ok(v) => v,
                Err(Problem::NotPositive) => -1.0,
                Err(Problem::TinyDivisor) => -2.0,
            };
        }
    }

    #[kernel]
    pub fn masked_scale(a: &[f32], b: &[f32], mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            let scale = b[i];
            *o = checked_rsqrt(a[i])
                .map(|r| r * scale)
                .filter(|v| *v < 4.0)
                .unwrap_or(0.0);
        }
    }
}

fn main() {
    const N: usize = 100_003;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/safe_ratio.ptx").unwrap();

    let a_host: Vec<f32> = (0..N).map(|i| (i as f32 - 10_000.0) * 1.0e-4).collect();
    let b_host: Vec<f32> = (0..N).map(|i| ((i % 17) as f32 - 8.0) * 0.1).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::safe_ratio,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(a), slice(b), slice_mut(out)]
    }
    .unwrap();

    let r = out.to_host_vec(&stream).unwrap();
    let failed = r.iter().filter(|v| **v < 0.0).count();
    println!("safe_ratio: {} of {} could not be computed", failed, N);
}
