// E0369: an operator on a bare type parameter whose bounds do not give it, even though the
// instance's type (f32) has it.
fn sum<T: Copy>(a: T, b: T) -> T {
    a + b
}

fn less<T: Copy + Clone>(a: T, b: T) -> bool {
    a < b
}

fn fine<T: Copy + PartialOrd + core::ops::Mul<Output = T>>(a: T, b: T) -> T {
    if a < b { a * b } else { b }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = sum(x[i], 1.0) + fine(x[i], 2.0) + if less(x[i], 0.0) { 1.0 } else { 0.0 };
    }
}
