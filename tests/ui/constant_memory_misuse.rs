// `#[constant]` statics: the type is ConstantMemory<T>, the value starts as UNINIT, and the
// only methods are get() and get_ref().
#[constant]
static A: ConstantMemory<[f32; 4]> = [1.0, 2.0, 3.0, 4.0];
#[constant]
static B: ConstantMemory<u32> = ConstantMemory::UNINIT;

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let a = A.get();
    let b = B.load();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a[0] + b as f32;
    }
}
