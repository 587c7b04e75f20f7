// `get_mut` consumes the ThreadIndex; reading it afterwards is a use of a moved value.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
    let i = idx.get();
}
