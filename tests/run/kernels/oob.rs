// Reads one element past the end of `a` in the last thread: a bug the bounds check catches.
#[kernel]
pub fn shift_left(a: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a[i + 1];
    }
}
