// Making an atomic view from a raw pointer is unsafe.
#[kernel]
pub fn k(counter: *mut u32) {
    let c = DeviceAtomicU32::from_ptr(counter);
    c.fetch_add(1, AtomicOrdering::Relaxed);
}
