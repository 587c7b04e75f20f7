// Iterator methods oxidec does not have are named in the error; `min`/`max` need `Ord`,
// which floats lack (as in rustc).
#[device]
fn f(a: &[f32]) -> f32 {
    let s: f32 = a.iter().flat_map(|x| [*x, *x]).sum();
    let t = a.iter().peekable().count();
    let m = a.iter().copied().max();
    let u = a.iter().frobnicate();
    s + t as f32
}
