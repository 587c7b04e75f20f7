#[kernel]
pub fn k(a: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a[t];
    }
}
