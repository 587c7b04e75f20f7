// The global index / 16 differs between the two halves of a warp.
#[kernel]
pub fn k(keys: &[u32], mut out: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let global = thread::index_1d().get();
    let w = global / 16;
    if w >= keys.len() {
        return;
    }
    let v = warp::ballot(keys[w] > lane);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
