//! One kernel for several activation functions: the activation is an enum passed by value,
//! some variants with parameters, and a `match` picks the formula for every element.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[derive(Clone, Copy)]
    pub enum Activation {
        Relu,
        LeakyRelu(f32),
        HardTanh { lo: f32, hi: f32 },
        HardSigmoid,
        Scaled(f32),
    }

    #[device]
    fn apply(act: Activation, x: f32) -> f32 {
        match act {
            Activation::Relu => x.max(0.0),
            Activation::LeakyRelu(slope) if x < 0.0 => slope * x,
            Activation::LeakyRelu(_) => x,
            Activation::HardTanh { lo, hi } => x.clamp(lo, hi),
            Activation::HardSigmoid => (x * (1.0 / 6.0) + 0.5).clamp(0.0, 1.0),
            Activation::Scaled(s) => s * x,
        }
    }

    #[kernel]
    pub fn activate(x: &[f32], act: Activation, mut y: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(out) = y.get_mut(idx) {
            *out = apply(act, x[i]);
        }
    }
}

fn main() {
    const N: usize = 100_003;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/activation.ptx").unwrap();

    let x_host: Vec<f32> = (0..N).map(|i| (i as f32 - 50_000.0) * 1.0e-4).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::activate,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), kernels::Activation::LeakyRelu(0.1), slice_mut(y)]
    }
    .unwrap();

    let r = y.to_host_vec(&stream).unwrap();
    println!("leaky relu: first {} last {}", r[0], r[N - 1]);
}
