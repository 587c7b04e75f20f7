#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let x: u32 = 1.5;
}
