// The classic tree reduction: within one interval thread t writes S[t] and reads
// S[t + half], which only threads >= half would write, and they are idle (t < half).
const BLOCK: usize = 256;

#[kernel]
#[launch_contract(block = (BLOCK, 1, 1))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, BLOCK> = SharedArray::UNINIT;
    let tid = thread::threadIdx_x() as usize;
    let i = thread::index_1d().get();
    unsafe {
        S[tid] = if i < x.len() { x[i] } else { 0.0 };
    }
    thread::sync_threads();
    let mut half = BLOCK / 2;
    while half > 0 {
        if tid < half {
            unsafe {
                S[tid] += S[tid + half];
            }
        }
        thread::sync_threads();
        half /= 2;
    }
    if tid == 0 {
        if let Some(o) = out.get_mut(thread::index_1d()) {
            *o = unsafe { S[0] };
        }
    }
}
