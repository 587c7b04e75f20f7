// An array of atomic views: not supported (a slice of them, `&[DeviceAtomicU32]`, is).
#[kernel]
pub fn k(ctrl: &[DeviceAtomicU32], cells: [DeviceAtomicU32; 4], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d().get();
    if i < ctrl.len() {
        ctrl[i].fetch_add(5, AtomicOrdering::Relaxed);
    }
}
