// Every use of a `static mut` device global needs `unsafe`, as in rustc.
static mut HITS: u32 = 0;
static SCALE: f32 = 2.0;

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    HITS += 1;
    let seen = unsafe { HITS };
    if let Some(o) = out.get_mut(i) {
        *o = HITS as f32 * SCALE + seen as f32;
    }
}
