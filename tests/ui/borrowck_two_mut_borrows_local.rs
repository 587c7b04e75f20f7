// Two mutable borrows of one array (indices are not compared).
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut a = [0.0f32; 4];
    let r1 = &mut a[0];
    let r2 = &mut a[1];
    *r1 = 1.0;
    *r2 = 2.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a[0] + a[1];
    }
}
