use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
#[cuda_module]
mod kernels {
    use super::*;
    #[kernel]
    pub fn k(mut out: DisjointSlice<u64>) {
        let i = thread::index_1d();
        let r = &(8u64..16);
        let _ = r;
        if let Some(o) = out.get_mut(i) { *o = 1; }
    }
}
