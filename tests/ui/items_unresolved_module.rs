// Paths through modules that do not exist, or items a module does not have.
mod geo {
    pub fn area(w: f32, h: f32) -> f32 { w * h }
    pub const SIDE: f32 = 2.0;
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let a = gemo::area(1.0, 2.0);
    let b = geo::shape::area(1.0, 2.0);
    let c = geo::aera(1.0, 2.0);
    let d = geo::SIED;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a + b + c + d;
    }
}
