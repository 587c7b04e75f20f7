// Only half of the block reaches the barrier.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    let tid = thread::threadIdx_x();
    if tid < 128 {
        unsafe {
            TILE[tid as usize] = x[tid as usize];
        }
        thread::sync_threads();
    }
}
