// Every unsafe operation inside `unsafe { }`, or in an `unsafe fn`.
#[device]
unsafe fn store(p: *mut f32, v: f32) {
    *p.add(1) = v;
}

#[kernel]
pub fn k(src: *const f32, dst: *mut f32, mut out: DisjointSlice<f32>, n: usize) {
    static mut TILE: SharedArray<f32, 32> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let v = unsafe { *src };
    unsafe {
        TILE[t] = v;
        store(dst, v);
        if t < n {
            *out.get_unchecked_mut(t) = v;
        }
    }
}

#[kernel]
pub unsafe fn k_unsafe(data: &mut [f32], p: *mut f32) {
    let i = thread::index_1d().get();
    data[i] = *p;
    store(p, data[i]);
}
