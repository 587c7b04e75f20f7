// A reference to a struct: fields read and written through it.
struct Acc { sum: f32, count: u32 }

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut acc = Acc { sum: 0.0, count: 0 };
    let r = &mut acc;
    for j in 0..x.len() {
        r.sum += x[j];
        r.count += 1;
    }
    let mean = acc.sum / acc.count as f32;
    if let Some(o) = out.get_mut(idx) {
        *o = mean;
    }
}
