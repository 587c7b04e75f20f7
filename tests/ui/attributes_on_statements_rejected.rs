use cuda_device::{kernel, thread, DisjointSlice};

#[cfg(not(target_arch = "nvptx64", target_os = "cuda"))]
fn helper() -> u32 { 1 }

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let mut s = 0u32;
    // rustc attaches these to the operand `s`: unstable there
    #[allow(unused)]
    s += 1;
    #[cfg(not(target_os = "cuda"))]
    s = s * 2;
    #[inline]
    let t = s;
    #[unroll]
    bump(t);
    #[cfg(target_pointer_width = 64)]
    let u = t;
    if let Some(o) = out.get_mut(idx) {
        *o = u + helper();
    }
}

fn bump(x: u32) -> u32 { x + 1 }
