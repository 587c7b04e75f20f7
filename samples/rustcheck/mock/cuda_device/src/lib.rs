//! A CPU mock of the cuda-oxide device API, for checking the samples with rustc.
pub use cuda_macros::{cuda_module, device, kernel};
use std::marker::PhantomData;

#[allow(non_snake_case)]
pub mod thread {
    use std::cell::Cell;
    use std::marker::PhantomData;
    pub struct Index1D;
    pub struct Index2D<const S: usize>;
    thread_local! {
        static STATE: Cell<[u32; 12]> = const { Cell::new([0; 12]) };
    }
    /// block_idx, thread_idx, block_dim, grid_dim
    pub fn set(s: [u32; 12]) { STATE.with(|c| c.set(s)); }
    fn st(i: usize) -> u32 { STATE.with(|c| c.get()[i]) }
    pub fn blockIdx_x() -> u32 { st(0) }
    pub fn blockIdx_y() -> u32 { st(1) }
    pub fn blockIdx_z() -> u32 { st(2) }
    pub fn threadIdx_x() -> u32 { st(3) }
    pub fn threadIdx_y() -> u32 { st(4) }
    pub fn threadIdx_z() -> u32 { st(5) }
    pub fn blockDim_x() -> u32 { st(6) }
    pub fn blockDim_y() -> u32 { st(7) }
    pub fn blockDim_z() -> u32 { st(8) }
    pub fn gridDim_x() -> u32 { st(9) }
    pub fn gridDim_y() -> u32 { st(10) }
    pub fn gridDim_z() -> u32 { st(11) }

    /// Neither Copy nor Clone, as in cuda-oxide.
    pub struct ThreadIndex<I = Index1D> {
        pub(crate) i: usize,
        pub(crate) valid: bool,
        _p: PhantomData<I>,
    }
    impl<I> ThreadIndex<I> {
        pub fn get(&self) -> usize { self.i }
        pub fn in_bounds(&self, n: usize) -> bool { self.valid && self.i < n }
    }
    pub fn index_1d() -> ThreadIndex {
        let valid = blockDim_y() == 1 && blockDim_z() == 1 && gridDim_y() == 1 && gridDim_z() == 1;
        let i = (blockIdx_x() * blockDim_x() + threadIdx_x()) as usize;
        ThreadIndex { i, valid, _p: PhantomData }
    }
    pub fn index_2d<const S: usize>() -> Option<ThreadIndex<Index2D<S>>> {
        let col = (blockIdx_x() * blockDim_x() + threadIdx_x()) as usize;
        let row = (blockIdx_y() * blockDim_y() + threadIdx_y()) as usize;
        if col >= S { return None; }
        Some(ThreadIndex { i: row * S + col, valid: true, _p: PhantomData })
    }
}

pub struct DisjointSlice<'a, T, I = thread::Index1D> {
    ptr: *mut T,
    len: usize,
    _p: PhantomData<(&'a mut [T], I)>,
}

impl<'a, T, I> DisjointSlice<'a, T, I> {
    pub fn new(v: &'a mut [T]) -> Self { DisjointSlice { ptr: v.as_mut_ptr(), len: v.len(), _p: PhantomData } }
    pub fn len(&self) -> usize { self.len }
    pub fn get_mut(&mut self, idx: thread::ThreadIndex<I>) -> Option<&mut T> {
        if idx.valid && idx.i < self.len { Some(unsafe { &mut *self.ptr.add(idx.i) }) } else { None }
    }
    pub unsafe fn get_unchecked_mut(&mut self, i: usize) -> &mut T {
        assert!(i < self.len, "get_unchecked_mut out of bounds: {} >= {}", i, self.len);
        &mut *self.ptr.add(i)
    }
}
