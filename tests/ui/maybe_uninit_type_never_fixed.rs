// nothing fixes the `T` of this `MaybeUninit::uninit()`: rustc asks for annotations too
use cuda_device::{kernel, thread, DisjointSlice};
use core::mem::MaybeUninit;

#[kernel]
pub fn unknown_slot(mut out: DisjointSlice<u32>) {
    let _slot = MaybeUninit::uninit();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = 1;
    }
}
