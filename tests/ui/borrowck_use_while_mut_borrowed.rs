// Reading a value while a mutable borrow of it is alive.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut acc = 1.0f32;
    let r = &mut acc;
    let before = acc;
    *r += before;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = acc;
    }
}
