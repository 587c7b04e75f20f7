// Declared, never assigned, then read.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let scale: f32;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = 2.0 * scale;
    }
}
