// An impl must define every required item of its trait (E0046).
trait Shape {
    fn area(&self) -> f32;
    fn perimeter(&self) -> f32;
    fn ratio(&self) -> f32 {
        self.area() / self.perimeter()
    }
}

#[derive(Clone, Copy)]
struct Square {
    side: f32,
}

impl Shape for Square {
    fn area(&self) -> f32 {
        self.side * self.side
    }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let s = Square { side: x[idx.get()] };
    if let Some(o) = out.get_mut(idx) {
        *o = s.ratio();
    }
}
