// A module-level `static` is a device global in global memory, initialised with its value.
static X: f32 = 1.0;
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = X; }
}
