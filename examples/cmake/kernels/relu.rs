//! out = max(x, 0), one element per thread.
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
#[launch_contract(requires = (out.len() == x.len()))]
pub fn relu(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = if x[i] > 0.0 { x[i] } else { 0.0 };
    }
}
