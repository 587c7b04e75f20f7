// A method in a trait impl that the trait does not declare (E0407).
trait Scale {
    fn scale(self, k: f32) -> Self;
}

#[derive(Clone, Copy)]
struct V {
    x: f32,
}

impl Scale for V {
    fn scale(self, k: f32) -> V {
        V { x: self.x * k }
    }
    fn shift(self, d: f32) -> V {
        V { x: self.x + d }
    }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let v = V { x: x[idx.get()] }.scale(2.0);
    if let Some(o) = out.get_mut(idx) {
        *o = v.x;
    }
}
