// `out.len()` borrows `out` while the `get_mut` reference is alive.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = out.len() as f32;
    }
}
