// An intended race, allowed explicitly.
#[kernel]
#[allow(shared_race)]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 257> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe {
        S[t] = x[t];
    }
    let v = unsafe { S[t + 1] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
