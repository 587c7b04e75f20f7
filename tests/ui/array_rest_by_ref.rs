// `ref rest @ ..` in an array pattern would need a reference to a sub-array: refused
// clearly (rather than leaving `rest` unbound), with the by-value form as the way out.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let arr = [x[0], x[1], x[2]];
    let [_, ref rest @ ..] = arr;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = rest[0];
    }
}
