#[kernel]
pub fn k(mut out: DisjointSlice<u8>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = 256;
    }
}
