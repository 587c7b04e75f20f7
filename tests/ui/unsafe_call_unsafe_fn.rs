// Calling an `unsafe fn` needs `unsafe`, except from another `unsafe fn`.
#[device]
unsafe fn store(p: *mut f32, v: f32) {
    *p = v;
}

#[kernel]
pub fn k(p: *mut f32) {
    store(p, 1.0);
    unsafe {
        store(p, 2.0);
    }
}

#[kernel]
pub unsafe fn k_unsafe(p: *mut f32) {
    store(p, 3.0);
}
