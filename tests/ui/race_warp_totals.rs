// Lane 31 of each warp writes its total; the other lanes read it before the barrier.
#[kernel]
#[launch_contract(block = (256, 1, 1))]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    static mut TOTALS: SharedArray<u32, 8> = SharedArray::UNINIT;
    let lane = warp::lane_id();
    let w = warp::warp_id() as usize;
    if lane == 31 {
        unsafe {
            TOTALS[w] = x[w];
        }
    }
    let total = unsafe { TOTALS[w] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = total;
    }
}
