// `let r = &mut v;` in a loop that lowering unrolls: each copy has its own `r` (one
// definition each), as in the rolled loop with more trips.
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let mut v = 1u32;
    for j in 0..3 {
        let r = &mut v;
        *r = *r * 3 + j;
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
