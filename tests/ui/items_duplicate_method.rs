// Two associated items of one type with one name.
struct P { x: f32 }

impl P {
    fn get(&self) -> f32 { self.x }
}

impl P {
    fn get(&self) -> f32 { self.x + 1.0 }
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let p = P { x: 1.0 };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = p.get();
    }
}
