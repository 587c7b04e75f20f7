// Closures are inlined where `Option`/`Result` methods take them; other uses are an error.
#[device]
fn f(a: Option<f32>) -> f32 {
    let g = |x: f32| x * 2.0;
    a.map(|x| x + 1.0).unwrap_or(0.0)
}
