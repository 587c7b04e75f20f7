#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    gpu_printf!("x[{}] = {} and {}\n", i, x[i]);
    gpu_printf!("{:x}\n", x[i]);
    gpu_printf!("{name}\n", i);
    if let Some(o) = out.get_mut(idx) {
        *o = x[i];
    }
}
