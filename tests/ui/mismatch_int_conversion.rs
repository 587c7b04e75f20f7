#[kernel]
pub fn k(n: u32, mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i: usize = idx.get();
    let limit: usize = n;
    let wide: u64 = n;
    let narrow: u16 = n;
    let total: usize = limit + n;
    if let Some(o) = out.get_mut(idx) {
        *o = wide + (i as u64) + (narrow as u64) + (total as u64);
    }
}
