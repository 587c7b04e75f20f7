// Warp collectives under conditions that are the same for every lane of a warp.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x();
    let mut v = x[t as usize];
    let mut offset = 16u32;
    while offset > 0 {
        v += warp::shuffle_down_f32(v, offset);
        offset /= 2;
    }
    if t < 32 {
        v += warp::shuffle_xor_f32(v, 1);
    }
    if warp::warp_id() == 1 {
        let all = warp::all(v > 0.0);
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
