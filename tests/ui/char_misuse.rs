// `char` is not an integer: no integer literals, no arithmetic, `as char` only from u8.
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let j = i.get();
    if let Some(o) = out.get_mut(i) {
        let c: char = 'a';
        let d: char = 5;
        let e = c + 1;
        let f = x[j] as char;
        let g = c as f32;
        *o = c as u32;
    }
}
