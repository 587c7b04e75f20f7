// Raw pointer parameters are accepted, but using them needs `unsafe`.
#[kernel]
pub fn k(src: *const f32, dst: *mut f32) {
    let i = thread::index_1d().get();
    let v = *src;
    *dst = v * 2.0;
}
