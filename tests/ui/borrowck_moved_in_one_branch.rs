// Moved on one path only: after the `if`, the index may have been moved.
#[device]
fn consume(i: ThreadIndex) -> usize {
    i.get()
}

#[kernel]
pub fn k(flag: u32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut n = 0usize;
    if flag > 0 {
        n = consume(idx);
    }
    if let Some(o) = out.get_mut(idx) {
        *o = n as f32;
    }
}
