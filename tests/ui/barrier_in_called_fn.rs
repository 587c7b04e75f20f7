// A device function that waits at a barrier is a barrier.
#[device]
fn stage() {
    thread::sync_threads();
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let lane = warp::lane_id();
    if lane == 0 {
        stage();
    }
}
