//! Two kernels for the Rust host: a float interpolation and an integer hash.
use cuda_device::{kernel, thread, DisjointSlice};

/// out = a + t * (b - a), one element per thread.
#[kernel]
#[launch_contract(requires = (a.len() == b.len(), out.len() == a.len()))]
pub fn lerp(a: &[f32], b: &[f32], t: f32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a[i] + t * (b[i] - a[i]);
    }
}

/// out[i] = a 32-bit integer hash of (i, seed), with wrapping arithmetic.
#[kernel]
pub fn hash(seed: u32, mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let mut h = (i as u32).wrapping_mul(0x9e37_79b9) ^ seed;
        h = (h ^ (h >> 16)).wrapping_mul(0x85eb_ca6b);
        h = (h ^ (h >> 13)).wrapping_mul(0xc2b2_ae35);
        *o = h ^ (h >> 16);
    }
}
