// Two impls of one trait for one type (E0119).
trait Halve {
    fn halve(self) -> Self;
}

impl Halve for f32 {
    fn halve(self) -> f32 {
        self * 0.5
    }
}

impl Halve for f32 {
    fn halve(self) -> f32 {
        self / 2.0
    }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let h = x[idx.get()].halve();
    if let Some(o) = out.get_mut(idx) {
        *o = h;
    }
}
