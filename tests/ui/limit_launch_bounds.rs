// #[launch_bounds(MAX_THREADS, MIN_BLOCKS)]: MAX_THREADS in 1..=1024 (ptxas rejects
// `.maxntid 0`); MIN_BLOCKS above 32 is ignored by ptxas (a warning).
#[kernel]
#[launch_bounds(0, 0)]
pub fn zero(mut out: DisjointSlice<u32>) {
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) { *o = 1; }
}

#[kernel]
#[launch_bounds(2048)]
pub fn too_wide(mut out: DisjointSlice<u32>) {
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) { *o = 2; }
}

#[kernel]
#[launch_bounds(256, 100)]
pub fn many_blocks(mut out: DisjointSlice<u32>) {
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) { *o = 3; }
}

#[kernel]
#[launch_bounds(1024, 2)]
pub fn fine(mut out: DisjointSlice<u32>) {
    let t = thread::index_1d();
    if let Some(o) = out.get_mut(t) { *o = 4; }
}
