// `#[kernel(f32, u32)]` instantiates a kernel of one type parameter (entries `fill_f32` and
// `fill_u32`); a list on a kernel with two parameters is E0107.
#[kernel(f32, u32)]
pub fn fill<T: Copy>(v: T, mut out: DisjointSlice<T>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}

#[kernel(f32)]
pub fn pair<T: Copy, U: Copy>(a: T, b: U, mut out: DisjointSlice<T>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = a;
    }
}
