// A module-level shared array (as cuda-oxide allows): each block still has its own copy;
// and one with an alignment parameter.
static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
static mut WIDE: SharedArray<u8, 100, 128> = SharedArray::UNINIT;

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x() as usize;
    unsafe {
        TILE[t] = x[t];
        WIDE[t % 100] = 1;
    }
    thread::sync_threads();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = unsafe { TILE[255 - t] };
    }
}
