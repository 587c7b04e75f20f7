// A ThreadIndex cannot be moved out from behind a reference.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut idx = thread::index_1d();
    let r = &mut idx;
    let stolen = *r;
}
