// Writing the array while a reference into it is alive.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut a = [0.0f32; 4];
    let r = &mut a[1];
    a[2] = 3.0;
    *r = 1.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a[1] + a[2];
    }
}
