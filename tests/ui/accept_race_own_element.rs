// Each thread reads back its own element (S[t], S[2t] / S[2t+1]), or reads after a barrier.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    static mut PAIRS: SharedArray<f32, 512> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe {
        S[t] = x[t];
        PAIRS[2 * t] = x[t];
    }
    let mine = unsafe { S[t] };
    let odd = unsafe { PAIRS[2 * t + 1] };
    thread::sync_threads();
    let other = unsafe { S[255 - t] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = mine + odd + other;
    }
}
