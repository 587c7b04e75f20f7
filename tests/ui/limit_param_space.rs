// Kernel parameters are passed in at most 4352 bytes of .param space (PTX ISA 7.8):
// 4 tables of 1024 bytes by value plus a slice (16 bytes) fit; a fifth table does not.
#[derive(Clone, Copy)]
pub struct Table {
    pub w: [u64; 128],
}

#[kernel]
pub fn fits(a: Table, b: Table, c: Table, d: Table, mut out: DisjointSlice<u64>) {
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) { *o = a.w[0] + b.w[1] + c.w[2] + d.w[3]; }
}

#[kernel]
pub fn too_many(a: Table, b: Table, c: Table, d: Table, e: Table, mut out: DisjointSlice<u64>) {
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) { *o = a.w[0] + b.w[1] + c.w[2] + d.w[3] + e.w[4]; }
}
