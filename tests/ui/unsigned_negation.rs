#[kernel]
pub fn k(n: u32, mut out: DisjointSlice<u32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = -n;
    }
}
