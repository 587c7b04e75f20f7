// Two `get_mut`s of the same slice one after the other: the first borrow is over.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = 1.0;
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o += 1.0;
    }
    let n = out.len();
}
