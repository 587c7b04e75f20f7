// A kernel's `&[T]` parameter is read-only.
#[kernel]
pub fn k(x: &[f32], scale: f32) {
    let i = thread::index_1d().get();
    x[i] = x[i] * scale;
}
