// Method lookup on a struct: unknown methods (with a similar name), an associated function
// called as a method, and `&mut self` on an immutable binding.
#[derive(Clone, Copy)]
struct Acc { total: f32 }

impl Acc {
    fn new() -> Acc { Acc { total: 0.0 } }
    fn add(&mut self, x: f32) { self.total += x; }
    fn value(&self) -> f32 { self.total }
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let acc = Acc::new();
    acc.add(1.0);
    let a = acc.valeu();
    let b = acc.new();
    let c = Acc::neww();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a + acc.value();
    }
}
