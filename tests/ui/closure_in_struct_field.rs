// A closure held in a struct field is called through it with the closure's own
// parameters: the wrong number of arguments is E0057, a wrong type E0308.
use cuda_device::{kernel, thread, DisjointSlice};
struct Op<F: Fn(f32) -> f32> { f: F, k: f32 }
impl<F: Fn(f32) -> f32> Op<F> { fn run(&self, x: f32) -> f32 { (self.f)(x, 1.0) * self.k } }
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let c = 3.0f32;
    let s = Op { f: |v: f32| v * c, k: 2.0 };
    if let Some(o) = out.get_mut(idx) { *o = (s.f)(i) + s.run(1.0); }
}
