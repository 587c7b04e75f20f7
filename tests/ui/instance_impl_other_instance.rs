// The items of `impl Pair<f32>` belong to that instance only: a call on `Pair<u32>` finds
// nothing (E0599), as does a trait method whose impl covers another instance; a blanket
// impl applies only to the types that satisfy its bounds (E0599 on a type that does not).
#[derive(Clone, Copy)]
struct Pair<T> {
    a: T,
    b: T,
}

impl Pair<f32> {
    fn sum(self) -> f32 {
        self.a + self.b
    }
}

trait Area {
    fn area(&self) -> f32;
}

impl Area for Pair<f32> {
    fn area(&self) -> f32 {
        self.a * self.b
    }
}

trait Loud {
    fn loud(&self) -> f32;
}

impl<T: Area> Loud for T {
    fn loud(&self) -> f32 {
        self.area() * 10.0
    }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let p = Pair { a: x[idx.get()], b: 2.0 };
    let q = Pair { a: 1u32, b: 2 };
    if let Some(o) = out.get_mut(idx) {
        *o = p.sum() + p.loud() + q.sum() as f32 + q.area() + q.loud();
    }
}
