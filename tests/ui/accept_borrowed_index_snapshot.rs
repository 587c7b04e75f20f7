// Borrowing an element of a local array, using it, then writing the array again.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut h = [0.0f32; 4];
    let mut j = 1usize;
    let r = &mut h[j];
    j = 3;
    *r = x[i];
    h[j] = *r + 1.0;
    if let Some(o) = out.get_mut(idx) {
        *o = h[1] + h[3];
    }
}
