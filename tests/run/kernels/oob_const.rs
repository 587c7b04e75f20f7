// A helper indexes a local array; one call site passes a constant past its end. rustc accepts
// this (its lint does not see through calls); once the helper is inlined, the bounds check
// always fails and what follows it is dead code.
fn pick(a: [f32; 4], i: usize) -> f32 {
    a[i]
}

#[kernel]
pub fn past_end(x: &[f32], mut out: DisjointSlice<f32>) {
    let a = [x[0], x[1], x[2], x[3]];
    let s = pick(a, 2) + pick(a, 11);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = s;
    }
}
