struct Tagged { idx: ThreadIndex, weight: f32 }

// Moving one field out of a struct leaves the other fields usable.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let t = Tagged { idx: thread::index_1d(), weight: 0.5 };
    if let Some(o) = out.get_mut(t.idx) {
        *o = t.weight;
    }
    let w = t.weight * 2.0;
}
