#[kernel]
pub fn k(flag: *mut u32, data: *mut f32, mut out: DisjointSlice<f32>) {
    let f = unsafe { DeviceAtomicU32::from_ptr(flag) };
    let d = unsafe { DeviceAtomicF32::from_ptr(data) };
    let ready = f.load(AtomicOrdering::Release);
    d.store(1.0, AtomicOrdering::Acquire);
    let bits = d.fetch_or(1.0, AtomicOrdering::Relaxed);
    let old = f.fetch_add(1, AtomicOrdering::Relaxd);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = bits + (ready + old) as f32;
    }
}
