// Masked warp collectives whose lanes are not their mask.
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let mut v = x[thread::threadIdx_x() as usize];
    if lane < 8 {
        v += warp::shuffle_xor_sync(0x0000_ffff, v, 1);
    }
    let m = warp::ballot(v > 3);
    if v > 5 {
        v += warp::redux_sync_add(m, v);
    }
    if v > 7 {
        v += warp::shuffle_sync(0x0000_00ff, v, 0);
    }
    warp::sync_mask(0xff);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
