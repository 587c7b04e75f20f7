// A volatile access is refused until it can be compiled as one (a plain load could be
// merged or hoisted out of a polling loop).
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn poll(flag: &[u32], mut out: DisjointSlice<u32>) {
    let p = flag.as_ptr();
    let seen = unsafe { p.read_volatile() };
    let again = unsafe { core::ptr::read_volatile(p) };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = seen + again;
    }
}
