// A checked local index needs its bound N: from `::<N>`, or from where it is used.
use cuda_device::view::{LocalIndex32, StaticView32};
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let t = idx.get() as u32;
    let mut acc = 0.0;
    if let Some(v) = StaticView32::<f32, 4>::from_slice(x) {
        if let Some(i) = LocalIndex32::new(t) {
            acc = v.at(i).read(); // decides N
        }
        let unused = LocalIndex32::new(t + 1);
        let c = LocalIndex32::constant::<2>();
        acc += v.at_const::<4>().read() + unused.is_some() as u32 as f32 + c.get() as f32;
    }
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}
