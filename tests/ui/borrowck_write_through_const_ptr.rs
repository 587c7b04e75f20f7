// Writing through a `*const` pointer.
#[kernel]
pub fn k(p: *const f32) {
    unsafe {
        *p = 1.0;
    }
}
