// A fresh ThreadIndex on every iteration: each one is moved once.
#[kernel]
pub fn k(mut a: DisjointSlice<f32>, mut b: DisjointSlice<f32>) {
    for j in 0..2 {
        let idx = thread::index_1d();
        if j == 0 {
            if let Some(o) = a.get_mut(idx) { *o = 1.0; }
        } else {
            if let Some(o) = b.get_mut(idx) { *o = 2.0; }
        }
    }
}
