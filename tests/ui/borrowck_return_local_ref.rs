// A reference to a local cannot outlive the function.
#[device]
fn local_ref(v: f32) -> &f32 {
    let x = v * 2.0;
    &x
}
