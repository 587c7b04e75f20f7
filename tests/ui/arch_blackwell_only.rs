// tcgen05 and cluster launch control exist only on Blackwell (sm_100): one error each.
#[kernel]
pub fn k(p: *mut u32) {
    unsafe {
        tcgen05::tcgen05_alloc(p, 32);
        cuda_device::clc::clc_try_cancel(p as *mut u8, p);
    }
}
