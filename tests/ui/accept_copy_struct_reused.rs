#[derive(Clone, Copy)]
struct Params { scale: f32, bias: f32 }

#[device]
fn apply(p: Params, v: f32) -> f32 { v * p.scale + p.bias }

// A `Copy` struct is copied, not moved, into a call.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let p = Params { scale: 2.0, bias: 1.0 };
    let a = apply(p, x[i]);
    let b = apply(p, a);
    if let Some(o) = out.get_mut(idx) {
        *o = b + p.bias;
    }
}
