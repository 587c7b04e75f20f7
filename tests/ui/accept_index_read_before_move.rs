// Reading the index with `.get()` before `get_mut` consumes it.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let inb = idx.in_bounds(x.len());
    if let Some(o) = out.get_mut(idx) {
        if inb {
            *o = x[i];
        }
    }
}
