use cuda_device::{kernel, thread, DisjointSlice};

// Lint levels, `cfg` and `unroll` where rustc accepts them: on items, `let` statements,
// call and block-like expression statements, and loops.
#[expect(dead_code)]
#[forbid(unsafe_op_in_unsafe_fn)]
const BIAS: u32 = 5;

// configured out: the GPU target has no Cargo feature, so this is never parsed
#[cfg(feature = "host-tools")]
fn host_only() -> Vec<String> { this is not rust at all }

#[cfg(all(target_arch = "nvptx64", target_os = "cuda", not(debug_assertions)))]
#[deny(unused)]
fn bump(x: u32) -> u32 { x + 1 }

#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    #[allow(unused_mut)]
    let mut s = x[i];
    #[cfg(any(test, target_os = "linux"))]
    let s = 0u32;
    #[allow(arithmetic_overflow)]
    let wrapped = 255u8 + 1;
    #[allow(clippy::needless_range_loop)]
    #[unroll]
    for j in 0..4u32 {
        s = s.wrapping_add(j);
    }
    let mut n = 0u32;
    #[unroll(2)]
    #[warn(unused)]
    while n < 3 {
        s = s.wrapping_add(n);
        n += 1;
    }
    #[allow(unused_unsafe)]
    unsafe {};
    #[cfg(debug_assertions)]
    loop {}
    #[allow(unused_must_use)]
    bump(s);
    if let Some(o) = out.get_mut(idx) {
        *o = bump(s) + BIAS + wrapped as u32;
    }
}
