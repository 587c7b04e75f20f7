// Passing `&mut f32` from `get_mut` to a function reborrows it: it is still usable after.
#[device]
fn bump(x: &mut f32, by: f32) { *x += by; }

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = 0.0;
        bump(o, 1.0);
        bump(o, 2.0);
        *o *= 2.0;
    }
}
