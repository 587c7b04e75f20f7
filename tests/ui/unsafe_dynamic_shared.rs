// Getting the dynamic shared memory's pointer is safe; using it is not.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let buf = DynamicSharedArray::<f32>::get();
    let t = thread::threadIdx_x() as usize;
    let slot = buf.add(t);
    *slot = x[t];
}
