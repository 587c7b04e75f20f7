// `get_mut` takes `&mut self`: the DisjointSlice parameter must be `mut`.
#[kernel]
pub fn k(x: &[f32], out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = x[i];
    }
}
