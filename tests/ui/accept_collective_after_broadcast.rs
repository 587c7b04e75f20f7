// `warp::shuffle(v, src)` from a warp-uniform source lane is the same in every lane of the
// warp, so a branch on it does not split the warp; `tiled_partition::<N>()` takes a `u32`
// const N, as in cuda-oxide.
use cuda_device::cooperative_groups::this_thread_block;

const TILE: u32 = 32;

#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let lane = warp::lane_id();
    let i = thread::index_1d().get();
    let mine = if i < x.len() { x[i] } else { 0 };
    let hits = warp::ballot(mine % 3 == 0);
    let first = hits.trailing_zeros();
    let seen = warp::shuffle(mine, first);
    if seen > 100 {
        let again = warp::ballot(mine > seen);
        if let Some(o) = out.get_mut(thread::index_1d()) {
            *o = again ^ lane;
        }
    }
    let tile = this_thread_block().tiled_partition::<TILE>();
    tile.sync();
}
