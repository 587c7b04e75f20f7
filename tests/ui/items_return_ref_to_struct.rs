// A method returning `&mut Self` (builder chaining) is not supported yet: say so plainly.
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
    a.push(1.0);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a.sum;
    }
}
