// References to locals may not leave the function (locals live in registers).
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
