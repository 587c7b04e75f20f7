// Trait objects need dynamic dispatch, which oxidec does not do.
trait Area {
    fn area(&self) -> f32;
}

#[device]
fn total(s: &dyn Area) -> f32 {
    s.area()
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
