// `union` types are not compiled yet: a use of one says so (not "cannot find type").
use cuda_device::{kernel, thread, DisjointSlice};

union Bits {
    word: u32,
    real: f32,
}

fn as_word(b: Bits) -> u32 {
    unsafe { b.word }
}

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = as_word(Bits { real: 1.5 });
    }
}
