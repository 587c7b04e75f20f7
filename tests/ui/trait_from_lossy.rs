// `From` exists only for lossless conversions, as in core (E0277).
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let v = x[idx.get()];
    let small = u8::from(v);
    let f = f32::from(v);
    let ok = u64::from(v);
    if let Some(o) = out.get_mut(idx) {
        *o = small as u32 + f as u32 + ok as u32;
    }
}
