// A reborrow through `&mut *o`, used before `o` is used again.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        let p = &mut *o;
        *p = 3.0;
        *o += 1.0;
    }
}
