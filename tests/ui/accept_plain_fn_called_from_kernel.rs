// A plain `fn` (no `#[device]`) called from a kernel is compiled for the GPU, as cuda-oxide does.
fn square(x: f32) -> f32 {
    x * x
}

#[kernel]
pub fn k(a: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = square(a[i]);
    }
}
