// Functions as values: a device API function is an intrinsic with no address, a generic
// function needs its arguments (from a turbofish or an expected `fn(..)` type: `g` is
// fine, `u` has neither), a kernel is no device function, and a call through a function
// pointer takes the pointer's arguments (E0061, E0308).
use cuda_device::{kernel, thread, DisjointSlice};

fn twice<T: Copy>(x: T) -> T {
    x
}

fn inc(x: u32) -> u32 {
    x + 1
}

#[kernel]
pub fn other(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1;
    }
}

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let read: fn() -> u32 = thread::index_1d_u32;
    let g: fn(u32) -> u32 = twice;
    let u = twice;
    let h = other;
    let f: fn(u32) -> u32 = inc;
    let a = f(1, 2);
    let b = f(1.5);
    if let Some(o) = out.get_mut(idx) {
        *o = a + b;
    }
}
