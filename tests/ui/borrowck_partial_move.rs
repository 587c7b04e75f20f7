// Moving one field out leaves the struct partially moved.
struct Tagged {
    idx: ThreadIndex,
    weight: f32,
}

#[device]
fn weight_of(t: Tagged) -> f32 {
    t.weight
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let t = Tagged { idx: thread::index_1d(), weight: 0.5 };
    if let Some(o) = out.get_mut(t.idx) {
        *o = t.weight;
    }
    let w = weight_of(t);
}
