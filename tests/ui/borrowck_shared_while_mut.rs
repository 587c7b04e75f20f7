// A shared borrow while a mutable one is still used.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut acc = 0.0f32;
    let r = &mut acc;
    let s = &acc;
    *r = 2.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = *s;
    }
}
