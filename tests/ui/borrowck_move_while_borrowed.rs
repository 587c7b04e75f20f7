// Moving a field out while the struct is borrowed.
#[device]
fn consume(i: ThreadIndex) -> usize {
    i.get()
}

struct Holder {
    idx: ThreadIndex,
    weight: f32,
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let h = Holder { idx: thread::index_1d(), weight: 1.0 };
    let r = &h;
    let n = consume(h.idx);
    let w = r.weight;
}
