// A slice of atomic views: not supported (a view is a pointer, not the cell).
#[kernel]
pub fn k(ctrl: &[DeviceAtomicU32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d().get();
    if i < ctrl.len() {
        ctrl[i].fetch_add(5, AtomicOrdering::Relaxed);
    }
}
