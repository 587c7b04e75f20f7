// A generic kernel over a closure type launched with a host closure: the closure's body is
// host code, so there is nothing to compile for the device (OX0002 at the launch site)
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn apply<F: Fn(f32) -> f32 + Copy>(x: &[f32], f: F, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = f(x[i]);
    }
}

fn main() {
    let scale = 2.5f32;
    let double = move |v: f32| v * scale;
    let module = load();
    module.apply::<_>(&[1.0], double, &mut [0.0]);
}
