// cuda-oxide declares a tf32 wgmma with K = 16, which PTX does not have.
use cuda_device::wgmma::*;

#[kernel]
pub unsafe fn k(out: *mut f32) {
    let mut acc = [[0.0f32; 8]; 4];
    wgmma_mma_m64n64k16_f32_tf32(&mut acc, 0, 0);
    *out = acc[0][0];
}
