#[kernel]
pub fn warp_sum(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut v = x[idx.get()];
    v += warp::shuffel_xor_f32(v, 16);
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
