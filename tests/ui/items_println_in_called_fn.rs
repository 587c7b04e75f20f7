// Host I/O in a function a kernel reaches.
fn report(x: f32) -> f32 {
    println!("x = {}", x);
    x
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    if let Some(o) = out.get_mut(i) {
        *o = report(1.0);
    }
}
