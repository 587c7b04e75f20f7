// rustc reads `<` after `as u32` as the start of generic arguments, not a comparison
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn compare_cast(x: u64, y: u32, mut out: DisjointSlice<u32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = (x as u32 < y) as u32;
    }
}
