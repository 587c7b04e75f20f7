use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn k(mut out: DisjointSlice<u8>) {
    let a = b'é';
    let b = b"ok\u{41}";
    let c = b'\q';
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a + b[0] + c;
    }
}
