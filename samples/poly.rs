//! y[i] = p(x[i]) for a polynomial given by its coefficients, highest degree first:
//! p(x) = coeffs[0] * x^d + coeffs[1] * x^(d-1) + ... + coeffs[d], by Horner's rule.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn poly(coeffs: &[f32], x: &[f32], mut y: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(out) = y.get_mut(idx) {
            let xv = x[i];
            let mut acc = 0.0f32;
            for k in 0..coeffs.len() {
                acc = acc * xv + coeffs[k];
            }
            *out = acc;
        }
    }
}

fn main() {
    const N: usize = 100_003;
    // 1 - x^2/2 + x^4/24 - x^6/720: the Taylor polynomial of cos(x).
    let coeffs_host: Vec<f32> = vec![-1.0 / 720.0, 0.0, 1.0 / 24.0, 0.0, -0.5, 0.0, 1.0];

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/poly.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| i as f32 / N as f32).collect();
    let coeffs = DeviceBuffer::from_host(&stream, &coeffs_host).unwrap();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::poly,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(coeffs), slice(x), slice_mut(y)]
    }
    .unwrap();

    let y_host = y.to_host_vec(&stream).unwrap();
    let mut max_err = 0.0f32;
    for i in 0..N {
        max_err = max_err.max((y_host[i] - x_host[i].cos()).abs());
    }
    println!("poly: cos(x) on [0, 1) to within {:e}", max_err);
}
