// A trait's supertrait must be implemented too (E0277); impls of one trait for two
// instances of a generic type are fine (`Pair<f32>`, `Pair<u64>`), two for the same
// instance conflict (E0119).
trait Area {
    fn area(&self) -> f32;
}

trait Describe: Area {
    fn double_area(&self) -> f32 {
        2.0 * self.area()
    }
}

#[derive(Clone, Copy)]
struct Sq(f32);

impl Describe for Sq {}

#[derive(Clone, Copy)]
struct Pair<T> {
    a: T,
    b: T,
}

impl Area for Pair<f32> {
    fn area(&self) -> f32 {
        self.a * self.b
    }
}

impl Area for Pair<f32> {
    fn area(&self) -> f32 {
        self.a + self.b
    }
}

impl Area for Pair<u64> {
    fn area(&self) -> f32 {
        (self.a * self.b) as f32
    }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let s = Sq(x[idx.get()]);
    let p = Pair { a: 1.0f32, b: 2.0 };
    let q = Pair { a: 1u32, b: 2 };
    if let Some(o) = out.get_mut(idx) {
        *o = s.double_area() + p.area() + q.area();
    }
}
