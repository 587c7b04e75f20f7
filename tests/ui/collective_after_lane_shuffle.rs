// A shuffle from a lane that differs between lanes is no broadcast: the branch on its
// result splits the warp.
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let i = thread::index_1d().get();
    let mine = if i < x.len() { x[i] } else { 0 };
    let seen = warp::shuffle(mine, lane ^ 1);
    if seen > 100 {
        let again = warp::ballot(mine > seen);
        if let Some(o) = out.get_mut(thread::index_1d()) {
            *o = again;
        }
    }
}
