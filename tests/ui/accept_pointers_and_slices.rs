// Raw pointers, `core::mem`, sub-slices and the slice methods are all accepted.
use core::mem;

fn first_two(s: &[f32]) -> (f32, f32) {
    let (a, b) = s.split_at(1);
    (a[0], b[0])
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut arr = [0.0f32; 4];
    arr.fill(1.0);
    let p = &raw mut arr[1];
    unsafe { p.write(2.0) };
    let q = core::ptr::addr_of!(arr[3]);
    let mut a = unsafe { q.read() };
    let mut b = arr[0];
    mem::swap(&mut a, &mut b);
    let (l, r) = first_two(&arr);
    let w = x.get(i).copied().unwrap_or(0.0) + x[..].len() as f32;
    if let Some(o) = out.get_mut(idx) {
        *o = a + b + l + r + w + mem::size_of::<f64>() as f32;
    }
}
