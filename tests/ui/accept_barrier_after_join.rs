// Barriers after the `if` (where every thread arrives) and under block-uniform
// conditions and loops are fine.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let idx = thread::index_1d();
    let i = idx.get();
    if i < x.len() {
        unsafe {
            TILE[t] = x[i];
        }
    }
    thread::sync_threads();
    for s in 0..4 {
        thread::sync_threads();
    }
    if thread::blockIdx_x() == 0 {
        thread::sync_threads();
    }
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { TILE[255 - t] };
    }
}
