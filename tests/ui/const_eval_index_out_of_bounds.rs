use cuda_device::{kernel, thread, DisjointSlice};

const N: usize = 4;

const TABLE: [u32; N] = {
    let mut t = [0u32; N];
    let mut i = 0;
    while i <= N {
        t[i] = i as u32 * 3;
        i += 1;
    }
    t
};

const PAIRS: [(u32, f32); 2] = [(1, 0.5), (2, 0.25)];
const THIRD: f32 = PAIRS[2].1;

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = TABLE[i % N] + THIRD as u32;
    }
}
