// `impl Trait` is a generic parameter in a parameter's type; as a return type it is not
// supported yet (oxidec would have to infer the hidden type from the body)
use cuda_device::{kernel, thread, DisjointSlice};

trait Shape {
    fn area(&self) -> f32;
}

#[derive(Clone, Copy)]
struct Sq(f32);

impl Shape for Sq {
    fn area(&self) -> f32 {
        self.0 * self.0
    }
}

fn make(x: f32) -> impl Shape {
    Sq(x)
}

fn measure(s: &impl Shape) -> f32 {
    s.area()
}

#[kernel]
pub fn shapes(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = measure(&Sq(2.0)) + make(1.0).area();
    }
}
