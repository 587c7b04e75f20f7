// A struct without `#[derive(Clone, Copy)]` moves into the call.
struct Params {
    scale: f32,
    bias: f32,
}

#[device]
fn apply(p: Params, v: f32) -> f32 {
    v * p.scale + p.bias
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let p = Params { scale: 2.0, bias: 1.0 };
    let a = apply(p, x[idx.get()]);
    let b = apply(p, a);
}
