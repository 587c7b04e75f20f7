struct Pair { a: f32, b: f32 }

// Two mutable borrows of different fields of one struct do not overlap.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut p = Pair { a: 1.0, b: 2.0 };
    let ra = &mut p.a;
    let rb = &mut p.b;
    *ra += 1.0;
    *rb *= 2.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = p.a + p.b;
    }
}
