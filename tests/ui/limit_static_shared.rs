// Static shared memory is at most 48 KiB per kernel: one 256 KiB array, and two arrays
// that fit alone but not together.
#[kernel]
pub fn huge(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut BIG: SharedArray<u32, 65535> = SharedArray::UNINIT;
    let t = thread::index_1d();
    let k = t.get();
    unsafe { BIG[k % 65535] = x[k]; }
    thread::sync_threads();
    if let Some(o) = out.get_mut(t) { *o = unsafe { BIG[(k + 1) % 65535] }; }
}

#[kernel]
pub fn two(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut A: SharedArray<f32, 8192> = SharedArray::UNINIT;
    static mut B: SharedArray<f32, 4097> = SharedArray::UNINIT;
    let t = thread::index_1d();
    let k = t.get();
    unsafe { A[k % 8192] = x[k]; B[k % 4097] = x[k]; }
    thread::sync_threads();
    if let Some(o) = out.get_mut(t) { *o = unsafe { A[(k + 1) % 8192] + B[(k + 1) % 4097] }; }
}

#[kernel]
pub fn fits(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut C: SharedArray<f32, 12288> = SharedArray::UNINIT;
    let t = thread::index_1d();
    let k = t.get();
    unsafe { C[k % 12288] = x[k]; }
    thread::sync_threads();
    if let Some(o) = out.get_mut(t) { *o = unsafe { C[(k + 1) % 12288] }; }
}
