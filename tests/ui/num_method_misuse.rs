// Integer and float methods on the wrong type, an ambiguous receiver, a wrong argument type.
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let j = i.get();
    if let Some(o) = out.get_mut(i) {
        let v = x[j];
        let a = v.signum();
        let b = 2.pow(3);
        let s = v as i32;
        let c = s.sinh();
        let d = v.rotate_left(1u64);
        let e = (v as f32).count_ones();
        let f = s.div_ceil(3);
        *o = v;
    }
}
