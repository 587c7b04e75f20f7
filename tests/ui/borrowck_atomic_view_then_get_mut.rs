// An atomic view borrows its slice (shared) for as long as it is used.
#[kernel]
pub fn k(mut total: DisjointSlice<u32>) {
    let c = DeviceAtomicU32::from_slice_elem(&total, 0);
    if let Some(o) = total.get_mut(thread::index_1d()) { *o = 1; }
    c.fetch_add(1, AtomicOrdering::Relaxed);
}
