// Every `SharedArray` is a `static mut`.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    TILE[t] = x[t];
    thread::sync_threads();
    let v = unsafe { TILE[255 - t] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
