//! Warp-level statistics with blocks of 80 threads: the third warp of every block has 16
//! lanes only, so every collective names the lanes that exist (`live_lanes_1d`) instead of
//! the full warp. Each thread gets its warp's sum, the largest flag of its warp, and how
//! many lanes of its warp share its flag's low two bits.
use cuda_device::{kernel, thread, warp, DisjointSlice};

#[kernel]
pub fn warp_stats(x: &[f32], flags: &[u32], mut sums: DisjointSlice<f32>,
                  mut maxima: DisjointSlice<u32>, mut same: DisjointSlice<u32>) {
    let i = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    // threads past the end take part with neutral values: the collectives need every lane
    let v = if i < x.len() { x[i] } else { 0.0 };
    let f = if i < flags.len() { flags[i] } else { 0 };
    let live = warp::live_lanes_1d();
    let mask = if live == 32 { u32::MAX } else { (1u32 << live) - 1 };
    let total = warp::reduce_sum_f32_partial(v, live);
    let largest = warp::redux_sync_max_u32(mask, f);
    let peers = warp::match_any_sync(mask, f & 3).count_ones();
    if let Some(o) = sums.get_mut(thread::index_1d()) {
        *o = total;
    }
    if let Some(o) = maxima.get_mut(thread::index_1d()) {
        *o = largest;
    }
    if let Some(o) = same.get_mut(thread::index_1d()) {
        *o = peers;
    }
}
