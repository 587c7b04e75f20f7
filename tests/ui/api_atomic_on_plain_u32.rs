#[kernel]
pub fn histogram(data: &[u8], mut partial: DisjointSlice<u32>) {
    static mut HIST: SharedArray<u32, 256> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    let i = idx.get();
    if i < data.len() {
        let bin = data[i] as usize;
        unsafe {
            HIST[bin].fetch_add(1, AtomicOrdering::Relaxed);
        }
    }
    thread::sync_threads();
    if let Some(o) = partial.get_mut(idx) {
        *o = unsafe { HIST[i % 256] };
    }
}
