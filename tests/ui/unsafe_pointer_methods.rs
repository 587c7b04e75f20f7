// Reading and writing through a raw pointer, `ptr::copy_nonoverlapping` and `mem::transmute`
// need `unsafe`, as in rustc; `is_null`, `cast` and `wrapping_add` do not.
use core::{mem, ptr};

#[kernel]
pub fn k(src: *const f32, dst: *mut f32) {
    let i = thread::index_1d().get();
    let v = src.read();
    dst.wrapping_add(i).write(v);
    ptr::copy_nonoverlapping(src, dst, 4);
    let bits: u32 = mem::transmute(v);
    if !dst.cast::<u32>().is_null() {
        unsafe { dst.cast::<u32>().write(bits) };
    }
}
