// `&raw const` needs a place; the sum of two values is a temporary.
#[kernel]
pub fn k(a: f32, b: f32, out: *mut f32) {
    let p = &raw const (a + b);
    unsafe { *out = *p };
}
