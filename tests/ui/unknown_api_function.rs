#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let t = thread::threadIdx();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = t;
    }
}
