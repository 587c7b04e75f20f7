//! out = x * factor + offset, one element per thread, in blocks of exactly 128 threads.
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
#[launch_contract(block = (128, 1, 1), requires = (out.len() == x.len()))]
pub fn scale(x: &[f32], factor: f32, offset: f32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = x[i] * factor + offset;
    }
}
