// `#[cluster_launch]` and distributed shared memory are Hopper's: a build for sm_80 (the
// default) names the architecture they need.
use core::ptr::addr_of;

#[kernel]
#[cluster_launch(2, 1, 1)]
pub fn pairs(mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u32, 1> = SharedArray::UNINIT;
    cluster::cluster_sync();
    let v = unsafe { cluster::dsmem_read_u32(addr_of!(S) as *const u32, 1) };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
