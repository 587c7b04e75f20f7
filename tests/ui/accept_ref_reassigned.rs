// A reference variable pointed at another local: both locals live in memory.
#[kernel]
pub fn k(flag: u32, mut out: DisjointSlice<f32>) {
    let mut a = 1.0f32;
    let mut b = 2.0f32;
    let mut r = &mut a;
    if flag > 0 {
        r = &mut b;
    }
    *r = 0.0;
}
