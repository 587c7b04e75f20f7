// Items of a module are not in scope outside it without a path or a `use`.
mod shapes {
    pub struct Square { pub side: f32 }
    pub fn area(s: Square) -> f32 { s.side * s.side }
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let s: Sqare = shapes::Square { side: 2.0 };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = area(s);
    }
}
