// The reference is used after the block that owns `x` has ended.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let r;
    {
        let x = 5.0f32;
        r = &x;
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = *r;
    }
}
