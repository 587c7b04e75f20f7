use cuda_device::{kernel, thread, DisjointSlice};

#[cfg(not(target_arch = "nvptx64", target_os = "cuda"))]
fn helper() -> u32 { 1 }

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = helper();
    }
}
