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

// One warp per block: f16-accumulating m16n8k16 / m16n8k8 (A 16x16, B 16x8 k-major, C 16x8,
// all f16 bits, fragments read from global memory), ldmatrix.x1 of A's first 8x8 matrix,
// and f64 m8n8k4 (A 8x4, B 4x8, C 8x8).
#[kernel]
pub fn mma_f16_f64(a: &[u16], b: &[u16], c: &[u16], ad: &[f64], bd: &[f64], cd: &[f64],
                   mut dh: DisjointSlice<u32>, mut dd: DisjointSlice<f64>) {
    static mut S: SharedArray<u16, 64, 16> = SharedArray::UNINIT;
    let lane = thread::threadIdx_x() as usize;
    let p = thread::blockIdx_x() as usize;
    let g = lane / 4;
    let q = lane % 4;
    unsafe {
        S[lane * 2] = a[p * 256 + (lane / 4) * 16 + (lane % 4) * 2];
        S[lane * 2 + 1] = a[p * 256 + (lane / 4) * 16 + (lane % 4) * 2 + 1];
    }
    thread::sync_threads();
    let pair = |m: &[u16], at: usize| (m[at] as u32) | ((m[at + 1] as u32) << 16);
    let kpair = |m: &[u16], at: usize| (m[at] as u32) | ((m[at + 8] as u32) << 16);
    let fa = [pair(a, p * 256 + g * 16 + 2 * q), pair(a, p * 256 + (g + 8) * 16 + 2 * q),
              pair(a, p * 256 + g * 16 + 2 * q + 8), pair(a, p * 256 + (g + 8) * 16 + 2 * q + 8)];
    let fb = [kpair(b, p * 128 + (2 * q) * 8 + g), kpair(b, p * 128 + (2 * q + 8) * 8 + g)];
    let fc = [pair(c, p * 128 + g * 8 + 2 * q), pair(c, p * 128 + (g + 8) * 8 + 2 * q)];
    unsafe {
        let x1 = ldmatrix_x1((core::ptr::addr_of!(S) as *const u16).add((lane % 8) * 8)
                             as *const u32);
        let h16 = mma_m16n8k16_f16_f16(fc, fa, fb);
        let h8 = mma_m16n8k8_f16_f16(fc, [fa[0], fa[1]], fb[0]);
        let d = mma_m8n8k4_f64([cd[p * 64 + g * 8 + 2 * q], cd[p * 64 + g * 8 + 2 * q + 1]],
                               ad[p * 32 + g * 4 + q], bd[p * 32 + q * 8 + g]);
        let o = (p * 32 + lane) * 5;
        *dh.get_unchecked_mut(o) = h16[0];
        *dh.get_unchecked_mut(o + 1) = h16[1];
        *dh.get_unchecked_mut(o + 2) = h8[0];
        *dh.get_unchecked_mut(o + 3) = h8[1];
        *dh.get_unchecked_mut(o + 4) = x1;
        *dd.get_unchecked_mut((p * 32 + lane) * 2) = d[0];
        *dd.get_unchecked_mut((p * 32 + lane) * 2 + 1) = d[1];
    }
}
