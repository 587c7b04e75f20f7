static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x() as usize;
    unsafe {
        TILE[t] = x[t];
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = unsafe { TILE[255 - t] };
    }
}
