// `#[repr(..)]` on structs: `align(N)` needs a power of two; `packed` is not supported yet
// (ignoring it would lay the fields out differently from rustc); unknown hints are E0552
use cuda_device::{kernel, thread, DisjointSlice};

#[derive(Clone, Copy)]
#[repr(align(24))]
struct Odd { a: u32 }

#[derive(Clone, Copy)]
#[repr(C, packed)]
struct Tight { a: u8, b: u32 }

#[derive(Clone, Copy)]
#[repr(simd)]
struct Lanes { a: f32 }

#[kernel]
pub fn uses_reprs(mut out: DisjointSlice<u32>) {
    let o = Odd { a: 1 };
    let t = Tight { a: 2, b: 3 };
    let l = Lanes { a: 4.0 };
    if let Some(slot) = out.get_mut(thread::index_1d()) {
        *slot = o.a + t.b + l.a as u32;
    }
}
