// `#[cfg_attr(P, attrs..)]` with a malformed predicate or an argument that is no attribute
// (tests/oracle/items/core_leftovers.rs runs the well-formed ones)
use cuda_device::{kernel, thread, DisjointSlice};

#[cfg_attr(all(), derive(Clone, Copy))]
struct Pair { a: u32, b: u32 }

#[cfg_attr(feature = 3, inline)]
fn broken() -> u32 { 1 }

#[cfg_attr(all(), 3)]
fn odd() -> u32 { 2 }

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let p = Pair { a: 1, b: 2 };
    let q = p;
    if let Some(slot) = out.get_mut(thread::index_1d()) {
        *slot = p.a + q.b + broken() + odd();
    }
}
