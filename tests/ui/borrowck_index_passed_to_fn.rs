// Passing a ThreadIndex to a function moves it.
#[device]
fn row_of(i: ThreadIndex) -> usize {
    i.get() / 16
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let row = row_of(idx);
    if let Some(o) = out.get_mut(idx) {
        *o = row as f32;
    }
}
