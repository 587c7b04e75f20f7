// u128/i128 are computed in 64-bit halves: division, remainder and the bit-counting
// methods are refused with OX0002, not miscompiled
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(x: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let a: u128 = x[i] as u128;
    let mut b = a / 3;
    b %= 7;
    let c = a.count_ones() as u128 + a.min(b);
    if let Some(o) = out.get_mut(idx) { *o = (b + c) as u64; }
}
