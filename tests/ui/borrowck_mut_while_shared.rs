// A mutable borrow while a shared one is still used.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut acc = 1.0f32;
    let seen = &acc;
    let r = &mut acc;
    *r = 2.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = *seen;
    }
}
