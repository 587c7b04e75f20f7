// A plain fn a kernel calls must be kernel-language code; one the grammar cannot parse (here:
// an async block) is an error only because the kernel calls it. The unreached host fn with the
// same kind of syntax is not.
fn clamp_all(x: f32) -> f32 {
    let f = async move { x };
    x
}

fn host_only(v: &[f32]) -> f32 {
    v.iter().map(|x| x * 2.0).sum()
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let n = i.get();
    if let Some(o) = out.get_mut(i) {
        *o = clamp_all(x[n]);
    }
}
