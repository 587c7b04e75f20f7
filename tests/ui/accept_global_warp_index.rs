// The global index / 32 is the same in a warp (blockDim.x a multiple of 32, as assumed
// for threadIdx.x / 32): a return under a condition on it keeps warps whole.
#[kernel]
pub fn k(keys: &[u32], mut out: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let global = thread::index_1d().get();
    let w = global / 32;
    if w >= keys.len() {
        return;
    }
    let v = warp::ballot(keys[w] > lane);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
