// An index loaded from memory may be any thread's element.
#[kernel]
pub fn k(x: &[f32], perm: &[u32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe {
        S[t] = x[t];
    }
    let j = perm[t] as usize;
    let v = unsafe { S[j] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
