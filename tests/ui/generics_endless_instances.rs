// E0275: a generic function calling itself with a larger type argument each time.
fn grow<T: Copy>(x: T, n: u32) -> u32 {
    if n == 0 { 0 } else { 1 + grow((x, x), n - 1) }
}

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = grow(1u8, 3);
    }
}
