// `get_mut` gives `None` to the threads past the end: they skip the barrier.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = x[i];
        thread::sync_threads();
    }
}
