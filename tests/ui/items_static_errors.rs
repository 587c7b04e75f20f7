// Device globals: a plain `static` is read-only; the value must be a constant of its type.
static LIMIT: f32 = 4.0;
static BAD: [f32; 2] = [1.0, 2.0, 3.0];

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let n = i.get();
    LIMIT = x[n];
    if let Some(o) = out.get_mut(i) {
        *o = BAD[0] + LIMIT;
    }
}
