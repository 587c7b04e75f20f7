// Array lengths are evaluated at compile time: only `const fn`s may be called there.
fn side() -> usize { 4 }
const fn looping(n: usize) -> usize {
    let mut k = 0;
    while k < n { }
    k
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let a = [0.0f32; side()];
    let b = [0.0f32; looping(3)];
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a[0] + b[0];
    }
}

const fn by_for(n: usize) -> usize {
    let mut s = 0;
    for i in 0..n { s += i; }
    s
}

#[kernel]
pub fn k2(mut out: DisjointSlice<f32>) {
    let c = [0.0f32; by_for(3)];
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = c[0];
    }
}
