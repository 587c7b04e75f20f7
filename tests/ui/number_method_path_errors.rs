// `f32::max(a, b)` takes an `f32` first, as rustc's fully qualified call does; an unknown
// method of a number type is named.
#[kernel]
pub fn k(x: &[f64], mut out: DisjointSlice<f32>) {
    let a = f32::max(x[0], 1.0);
    let b = f32::frobnicate(1.0f32);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a + b;
    }
}
