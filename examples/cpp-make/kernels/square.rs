//! out = x * x, one element per thread.
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn square(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = x[i] * x[i];
    }
}
