// `&raw mut` / `addr_of_mut!` of a `static mut` (a shared array) needs no `unsafe` (Rust
// 1.82): it makes a pointer without reading or writing the static. Using the pointer does.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    static mut TILE: SharedArray<f32, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let whole = &raw mut TILE;
    let p = core::ptr::addr_of_mut!(TILE[t]);
    unsafe {
        p.write(t as f32);
    }
    thread::sync_threads();
    let first = whole.cast::<f32>();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = unsafe { first.add(63 - t).read() };
    }
}
