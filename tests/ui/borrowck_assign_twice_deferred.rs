// `let x; x = ..;` is one assignment; a second one needs `mut`.
#[kernel]
pub fn k(flag: u32, mut out: DisjointSlice<f32>) {
    let v;
    v = 1.0f32;
    if flag > 0 {
        v = 2.0;
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
