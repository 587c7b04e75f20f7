// core::array::from_fn needs the array's length from the annotation or the turbofish (E0282).
#[device]
fn f(x: f32) -> f32 {
    let a = core::array::from_fn(|k| x * k as f32);
    a[0]
}
