#[kernel]
pub fn k(x: &[u8], mut out: DisjointSlice<u8>) {
    let idx = thread::index_1d();
    let v = x[idx.get()];
    let w = warp::shuffle_xor_u8(v, 1);
    if let Some(o) = out.get_mut(idx) {
        *o = w;
    }
}
