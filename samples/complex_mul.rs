//! out[i] = a[i] * b[i] + conj(a[i]) * s for arrays of complex numbers stored as
//! interleaved (re, im) pairs: a `Complex` type whose arithmetic comes from `core::ops`
//! trait impls (`Mul`, `Add`, `Mul<f32>`), each call resolved statically to one function.
use core::ops::{Add, Mul};
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex {
    re: f32,
    im: f32,
}

impl Complex {
    fn new(re: f32, im: f32) -> Complex {
        Complex { re, im }
    }

    fn conj(self) -> Complex {
        Complex { re: self.re, im: -self.im }
    }
}

impl Add for Complex {
    type Output = Complex;
    fn add(self, o: Complex) -> Complex {
        Complex::new(self.re + o.re, self.im + o.im)
    }
}

impl Mul for Complex {
    type Output = Complex;
    // (a + bi)(c + di) = (ac - bd) + (ad + bc)i
    fn mul(self, o: Complex) -> Complex {
        Complex::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
}

impl Mul<f32> for Complex {
    type Output = Complex;
    fn mul(self, k: f32) -> Complex {
        Complex::new(self.re * k, self.im * k)
    }
}

#[cuda_module]
mod kernels {
    use super::*;

    /// Thread j writes component j % 2 (0: re, 1: im) of product j / 2 into the
    /// interleaved output: one output element per thread, as `DisjointSlice` hands out.
    #[kernel]
    pub fn complex_mul(a: &[f32], b: &[f32], s: f32, mut out: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let j = idx.get();
        let k = j / 2;
        if let Some(o) = out.get_mut(idx) {
            let x = Complex::new(a[2 * k], a[2 * k + 1]);
            let y = Complex::new(b[2 * k], b[2 * k + 1]);
            let z = x * y + x.conj() * s;
            *o = if j % 2 == 0 { z.re } else { z.im };
        }
    }
}

fn main() {
    const N: usize = 1 << 20;
    let s = 0.5f32;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/complex_mul.ptx").unwrap();

    let a_host: Vec<f32> = (0..2 * N).map(|i| ((i % 17) as f32 - 8.0) * 0.125).collect();
    let b_host: Vec<f32> = (0..2 * N).map(|i| ((i % 5) as f32 - 2.0) * 0.5).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, 2 * N).unwrap();

    cuda_launch! {
        kernel: kernels::complex_mul,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(2 * N as u32),
        args: [slice(a), slice(b), s, slice_mut(out)]
    }
    .unwrap();

    let out_host = out.to_host_vec(&stream).unwrap();
    println!("complex_mul: {} products, first {} + {}i", N, out_host[0], out_host[1]);
}
