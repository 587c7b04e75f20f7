// A zero-sized value has no address in oxidec (it lives in no register and no memory).
use cuda_device::{kernel, thread, DisjointSlice, device};
#[derive(Clone, Copy)]
struct Z { a: [u8; 0] }
#[device]
fn addr_bits(value: &Z) -> u32 {
    (value as *const Z as usize & 15) as u32
}
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let z = Z { a: [] };
    let i = thread::index_1d();
    if let Some(o) = out.get_mut(i) { *o = addr_bits(&z); }
}
