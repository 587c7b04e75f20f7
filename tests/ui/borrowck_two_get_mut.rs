// `get_mut` borrows the whole slice while its result is used.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let a = thread::index_1d();
    let b = thread::index_1d();
    let first = out.get_mut(a);
    let second = out.get_mut(b);
    if let Some(x) = first {
        *x = 1.0;
    }
}
