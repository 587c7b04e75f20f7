// A 2D tile written by rows and read by columns in the same interval.
#[kernel]
#[launch_contract(block = (32, 32, 1))]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut T: SharedArray<[f32; 33], 32> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    unsafe {
        T[ty][tx] = x[ty * 32 + tx];
    }
    let v = unsafe { T[tx][ty] };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
