// A generic kernel that neither a type list nor a launch site in this file instantiates:
// nothing to compile, which is said (a warning), not silently dropped.
#[kernel]
pub fn fill<T: Copy>(v: T, mut out: DisjointSlice<T>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}

#[kernel]
pub fn other(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
