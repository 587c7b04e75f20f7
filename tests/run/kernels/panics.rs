// The panicking macros in device code: each traps with its message (tests/run/test_panics_run.py).
use cuda_device::{kernel, thread, DisjointSlice};

fn halve(s: &[u32], at: usize) -> u32 {
    let (lo, hi) = s.split_at(at);
    lo.len() as u32 * 1000 + hi.len() as u32
}

#[kernel]
pub fn checked(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = x[i];
    assert!(v >= 0.0, "negative input {} at {}", v, i);
    debug_assert!(v < 0.0, "debug assertions are off in release builds");
    if let Some(o) = out.get_mut(idx) {
        *o = v * 2.0;
    }
}

#[kernel]
pub fn modes(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let m = x[i];
    let table = [3u32, 5, 7, 11];
    let r = match m {
        0 => halve(&table, 1),
        1 => {
            assert_eq!(m + 1, 3, "mode {}", m);
            0
        }
        2 => unreachable!("mode {} of thread {}", m, i),
        3 => panic!("explicit mode {}", m),
        4 => todo!(),
        5 => halve(&table[1..], 4),
        _ => {
            assert_ne!(m, 6);
            m
        }
    };
    if let Some(o) = out.get_mut(idx) {
        *o = r;
    }
}

#[kernel]
pub fn window(x: &[u32], lo: usize, hi: usize, mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let w = &x[lo..hi];
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = w[i % w.len()];
    }
}
