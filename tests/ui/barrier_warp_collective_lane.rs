// A shuffle executed by half of the warp's lanes; the warp-uniform ones are fine.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let lane = warp::lane_id();
    let mut v = x[lane as usize];
    if lane < 16 {
        v += warp::shuffle_xor_f32(v, 1);
    }
    if warp::warp_id() == 0 {
        v += warp::shuffle_down_f32(v, 1);
    }
    if thread::threadIdx_x() < 64 {
        v += warp::shuffle_down_f32(v, 2);
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
