// Masked warp collectives whose mask names exactly the lanes that execute them: a
// constant mask under conditions on the lane id, a mask from a ballot of the branch's own
// condition, `active_mask()` read inside the branch, and a mask computed at run time.
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let t = thread::threadIdx_x();
    let mut v = x[t as usize];
    if lane < 16 {
        v += warp::shuffle_xor_sync(0x0000_ffff, v, 1);
        if lane >= 8 {
            v += warp::redux_sync_add(0x0000_ff00, v);
        }
    }
    if t % 32 >= 24 && !(lane == 31) {
        v ^= warp::match_any_sync(0x7f00_0000, v);
    }
    let odd = v % 2 == 1;
    let m = warp::ballot(odd);
    if odd {
        v += warp::shuffle_down_sync(m, v, 1);
    }
    if v > 100 {
        let a = warp::active_mask();
        v ^= warp::match_all_sync(a, v);
    }
    let live = warp::live_lanes_1d();
    v += warp::reduce_sum_f32_partial(v as f32, live) as u32;
    let n = warp::ballot_sync(u32::MAX, v > 3);
    warp::sync_mask(0xffff_ffff);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v ^ n;
    }
}
