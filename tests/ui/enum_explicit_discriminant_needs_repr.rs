// explicit discriminants on an enum with payloads need an integer `#[repr]` (rustc's E0732)
use cuda_device::{kernel, thread, DisjointSlice};

#[derive(Clone, Copy)]
enum Shape {
    Dot,
    Line(f32),
    Far = 9,
}

#[kernel]
pub fn shapes(mut out: DisjointSlice<u32>) {
    let s = Shape::Line(1.0);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = match s { Shape::Dot => 0, Shape::Line(_) => 1, Shape::Far => 2 };
    }
}
