// Without a barrier in the loop, iteration k reads what thread t + k wrote.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 512> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let mut acc = 0.0f32;
    for k in 0..4 {
        unsafe {
            S[t] = x[t] + acc;
        }
        acc += unsafe { S[t + k] };
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = acc;
    }
}
