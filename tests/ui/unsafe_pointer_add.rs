// `<*mut T>::add` is an unsafe method, like the dereference.
#[kernel]
pub fn k(base: *mut f32) {
    let i = thread::index_1d().get();
    let p = base.add(i);
    unsafe {
        *p = 0.0;
    }
}
