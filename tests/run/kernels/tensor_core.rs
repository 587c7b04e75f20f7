use cuda_device::wmma::*;
use cuda_device::{DisjointSlice, SharedArray, kernel, thread};

// Two warps per block; warp w of block b solves problem p = 2b + w: A 16x16, B 16x8
// stored k-major ([k][n]), C 16x8, all bf16/f16 as u16 bits.
#[kernel]
pub fn mma16(a: &[u16], b: &[u16], c: &[f32], mut frag: DisjointSlice<u32>,
             mut d: DisjointSlice<f32>) {
    static mut SA: SharedArray<u16, 512, 16> = SharedArray::UNINIT;
    static mut SB: SharedArray<u16, 256, 16> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let w = t / 32;
    let lane = t % 32;
    let p = thread::blockIdx_x() as usize * 2 + w;
    unsafe {
        for k in 0..8 {
            SA[w * 256 + lane * 8 + k] = a[p * 256 + lane * 8 + k];
        }
        for k in 0..4 {
            SB[w * 128 + lane * 4 + k] = b[p * 128 + lane * 4 + k];
        }
    }
    thread::sync_threads();
    let g = lane / 4;
    let q = lane % 4;
    unsafe {
        let sa = core::ptr::addr_of!(SA) as *const u16;
        let sb = core::ptr::addr_of!(SB) as *const u16;
        let pa = sa.add(w * 256 + (lane % 16) * 16 + (lane / 16) * 8) as *const u32;
        let pb = sb.add(w * 128 + (lane % 16) * 8) as *const u32;
        let fa = ldmatrix_x4(pa);
        let ft = ldmatrix_x4_trans(pa);
        let f2 = ldmatrix_x2(pa);
        let f1 = ldmatrix_x1_trans(pa);
        let fb = ldmatrix_x2_trans(pb);
        let mv = movmatrix_trans_b16(fa[0]);
        let base = (p * 32 + lane) * 14;
        for k in 0..4 {
            *frag.get_unchecked_mut(base + k) = fa[k];
            *frag.get_unchecked_mut(base + 4 + k) = ft[k];
        }
        *frag.get_unchecked_mut(base + 8) = f2[0];
        *frag.get_unchecked_mut(base + 9) = f2[1];
        *frag.get_unchecked_mut(base + 10) = f1;
        *frag.get_unchecked_mut(base + 11) = fb[0];
        *frag.get_unchecked_mut(base + 12) = fb[1];
        *frag.get_unchecked_mut(base + 13) = mv;
        let mut cc = [0.0f32; 4];
        for i in 0..4 {
            cc[i] = c[p * 128 + (g + 8 * (i / 2)) * 8 + 2 * q + i % 2];
        }
        let r0 = mma_m16n8k16_f32_bf16(cc, fa, fb);
        let r1 = mma_m16n8k16_f32_f16(cc, fa, fb);
        let r2 = mma_m16n8k8_f32_bf16(cc, f2, fb[0]);
        let r3 = mma_m16n8k8_f32_f16(cc, f2, fb[0]);
        for i in 0..4 {
            let at = (g + 8 * (i / 2)) * 8 + 2 * q + i % 2;
            *d.get_unchecked_mut((p * 4) * 128 + at) = r0[i];
            *d.get_unchecked_mut((p * 4 + 1) * 128 + at) = r1[i];
            *d.get_unchecked_mut((p * 4 + 2) * 128 + at) = r2[i];
            *d.get_unchecked_mut((p * 4 + 3) * 128 + at) = r3[i];
        }
    }
}

// One warp per block: tf32 (A 16x8, B 8x8 k-major) and s8/u8 (A 16x32 bytes row-major,
// B 32x8 stored n-major: 8 rows of 32 bytes), fragments read straight from global memory.
#[kernel]
pub fn mma_tf32_int(af: &[f32], bf: &[f32], cf: &[f32], a8: &[u32], b8: &[u32], ci: &[i32],
                    mut df: DisjointSlice<f32>, mut di: DisjointSlice<i32>) {
    let lane = thread::threadIdx_x() as usize;
    let p = thread::blockIdx_x() as usize;
    let g = lane / 4;
    let q = lane % 4;
    let mut ta = [0u32; 4];
    let mut ia = [0u32; 4];
    for r in 0..4 {
        ta[r] = af[p * 128 + (g + 8 * (r % 2)) * 8 + q + 4 * (r / 2)].to_bits();
        ia[r] = a8[p * 128 + (g + 8 * (r % 2)) * 8 + q + 4 * (r / 2)];
    }
    let tb = [bf[p * 64 + q * 8 + g].to_bits(), bf[p * 64 + (q + 4) * 8 + g].to_bits()];
    let ib = [b8[p * 64 + g * 8 + q], b8[p * 64 + g * 8 + q + 4]];
    let mut cc = [0.0f32; 4];
    let mut cn = [0i32; 4];
    for i in 0..4 {
        cc[i] = cf[p * 128 + (g + 8 * (i / 2)) * 8 + 2 * q + i % 2];
        cn[i] = ci[p * 128 + (g + 8 * (i / 2)) * 8 + 2 * q + i % 2];
    }
    unsafe {
        let r0 = mma_m16n8k8_f32_tf32(cc, ta, tb);
        let r1 = mma_m16n8k4_f32_tf32(cc, [ta[0], ta[1]], tb[0]);
        let s0 = mma_m16n8k32_s32_s8(cn, ia, ib);
        let s1 = mma_m16n8k32_s32_u8_s8_satfinite(cn, ia, ib);
        let s2 = mma_m16n8k16_s32_u8(cn, [ia[0], ia[1]], ib[0]);
        let s3 = mma_m16n8k16_s32_s8_u8(cn, [ia[0], ia[1]], ib[0]);
        for i in 0..4 {
            let at = (g + 8 * (i / 2)) * 8 + 2 * q + i % 2;
            *df.get_unchecked_mut((p * 2) * 128 + at) = r0[i];
            *df.get_unchecked_mut((p * 2 + 1) * 128 + at) = r1[i];
            *di.get_unchecked_mut((p * 4) * 128 + at) = s0[i];
            *di.get_unchecked_mut((p * 4 + 1) * 128 + at) = s1[i];
            *di.get_unchecked_mut((p * 4 + 2) * 128 + at) = s2[i];
            *di.get_unchecked_mut((p * 4 + 3) * 128 + at) = s3[i];
        }
    }
}
