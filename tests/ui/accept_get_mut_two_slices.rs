// `get_mut` on two different DisjointSlices, both references alive at once.
#[kernel]
pub fn k(x: &[f32], mut lo: DisjointSlice<f32>, mut hi: DisjointSlice<f32>) {
    let a = thread::index_1d();
    let b = thread::index_1d();
    let i = a.get();
    if let Some(l) = lo.get_mut(a) {
        if let Some(h) = hi.get_mut(b) {
            *l = x[i] * 0.5;
            *h = x[i] * 2.0;
        }
    }
}
