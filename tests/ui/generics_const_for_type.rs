// E0747: a constant given for a type parameter, and a type for a const parameter.
fn id<T: Copy>(a: T) -> T {
    a
}

fn times<const N: usize>(a: f32) -> f32 {
    a * N as f32
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = id::<3>(x[i]) + times::<f32>(x[i]);
    }
}
