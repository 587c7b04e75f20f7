// A thread has at most 512 KiB of local memory: a 4 MB local array is an error (and
// must not be written out as a million stores).
#[kernel]
pub fn big(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let k = t.get();
    let mut a = [0.0f32; 1000000];
    a[k % 1000000] = x[k];
    if let Some(o) = out.get_mut(t) { *o = a[(k * 7) % 1000000]; }
}
