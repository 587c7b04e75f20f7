// `transmute` between types of different sizes is E0512.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let v = x[idx.get()];
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { core::mem::transmute::<f32, u64>(v) };
    }
}
