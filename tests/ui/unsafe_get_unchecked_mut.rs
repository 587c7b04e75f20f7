// `get_unchecked_mut` has no bounds check and no one-element-per-thread rule.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>, n: usize) {
    let row = thread::blockIdx_y() as usize;
    let col = thread::threadIdx_x() as usize;
    *out.get_unchecked_mut(row * n + col) = 1.0;
}
