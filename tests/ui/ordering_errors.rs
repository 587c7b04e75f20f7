// core::cmp::Ordering has three variants; floats are not `Ord` (no `cmp`, use `total_cmp`
// or `partial_cmp`)
use cuda_device::{kernel, thread, DisjointSlice};
use core::cmp::Ordering;

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let bad = x[i].cmp(&1.0);
    let z = Ordering::Sideways;
    let fine = x[i].total_cmp(&1.0);
    if let Some(s) = out.get_mut(idx) {
        *s = fine as i32 as f32;
    }
}
