//! out = a * x + y, one element per thread. The launch contract ties the three lengths
//! together; the generated launcher checks it before anything runs.
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
#[launch_contract(requires = (x.len() == y.len(), out.len() == x.len()))]
pub fn axpy(a: f32, x: &[f32], y: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a * x[i] + y[i];
    }
}
