// tcgen05, cluster launch control, fp4/fp6 MMA and satfinite tf32 conversions exist only on
// Blackwell (sm_100 and newer): one error each.
use cuda_device::tcgen05::{Tcgen05SmemDescriptor, Tcgen05SwizzleMode};

#[kernel]
pub fn k(p: *mut u32) {
    unsafe {
        tcgen05::tcgen05_alloc(p, 32);
        cuda_device::clc::clc_try_cancel(p as *mut u8, p);
        let c = cuda_device::wmma::mma_m16n8k32_f32_e2m1_e2m1([0.0; 4], [0; 4], [0; 2]);
        let t = convert::cvt_rn_satfinite_tf32_f32(1.0);
        let d = Tcgen05SmemDescriptor::builder();
        let m = Tcgen05SwizzleMode::None;
    }
}
