// Assigned on one path only.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v: f32;
    if i < x.len() {
        v = x[i];
    }
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
