// Reversing through shared memory needs a barrier between the write and the read.
const N: usize = 256;

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, N> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe {
        S[t] = x[t];
    }
    let v = unsafe { S[N - 1 - t] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
