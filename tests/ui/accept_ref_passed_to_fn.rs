// A reference to a local passed to a function: the local lives in memory (mir/refs.py).
#[device]
fn bump(x: &mut f32) {
    *x += 1.0;
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut v = 0.0f32;
    bump(&mut v);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
