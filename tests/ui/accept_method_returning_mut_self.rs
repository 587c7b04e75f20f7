// A method returning `&mut Self` (builder chaining): inlined at each call, so the result is
// a reference to the caller's value (tests/oracle/items/ref_returns.rs runs it).
#[derive(Clone, Copy)]
struct Acc { sum: f32 }

impl Acc {
    fn push(&mut self, x: f32) -> &mut Self {
        self.sum += x;
        self
    }
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut a = Acc { sum: 0.0 };
    a.push(1.0).push(2.0);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a.sum;
    }
}
