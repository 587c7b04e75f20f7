// NLL: the mutable borrow ends at its last use, so `acc` may be borrowed again.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut acc = 0.0f32;
    let r = &mut acc;
    *r += x[i];
    let s = &acc;
    if let Some(o) = out.get_mut(idx) {
        *o = *s;
    }
}
