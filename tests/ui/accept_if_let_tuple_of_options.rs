// Both bindings of a tuple pattern of `Some`s are initialised in the `if let` body.
#[kernel]
pub fn k(a: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let x = if i < a.len() { Some(a[i]) } else { None };
    let y = if i + 1 < a.len() { Some(a[i + 1]) } else { None };
    if let Some(o) = out.get_mut(idx) {
        *o = 7;
        if let (Some(v), Some(w)) = (x, y) {
            *o = v ^ w;
        }
    }
}
