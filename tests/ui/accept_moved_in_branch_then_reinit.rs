#[device]
fn consume(i: ThreadIndex) -> usize { i.get() }

// Moved in one branch only, then given a fresh value before the next use.
#[kernel]
pub fn k(flag: u32, mut out: DisjointSlice<f32>) {
    let mut idx = thread::index_1d();
    let mut n = 0usize;
    if flag > 0 {
        n = consume(idx);
        idx = thread::index_1d();
    }
    if let Some(o) = out.get_mut(idx) {
        *o = n as f32;
    }
}
