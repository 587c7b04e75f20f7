// A closure reaches a struct through a function that takes it (`wrap(|v| ..)`): the
// struct is built in `wrap`, so a call through its field finds no closure (OX0002).
use cuda_device::{kernel, thread, DisjointSlice};
struct Holder<F> { f: F }
fn wrap<F: Fn(u32) -> u32>(f: F) -> Holder<F> { Holder { f } }
#[kernel]
pub fn kk(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let k = 3u32;
    let h = wrap(|v: u32| v + k);
    if let Some(o) = out.get_mut(idx) { *o = (h.f)(2); }
}
