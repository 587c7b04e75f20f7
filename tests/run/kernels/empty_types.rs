// Empty types: `core::convert::Infallible` and a user `enum Never {}`. A `Result<T, E>`
// with an empty error is matched with `Err(e) => match e {}` and destructured irrefutably;
// `MaybeUninit::<Empty>::uninit().assume_init()` traps (rustc's assert_inhabited guard).
use core::convert::Infallible;
use cuda_device::{kernel, thread, DisjointSlice};

enum Never {}

fn halve(x: u32) -> Result<u32, Infallible> {
    Ok(x / 2)
}

fn bump(x: u32) -> Result<u32, Never> {
    Ok(x.wrapping_mul(3).wrapping_add(1))
}

fn never_to_u32(n: Never) -> u32 {
    match n {}
}

#[kernel]
pub fn empty_results(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let a = match halve(x[i]) {
            Ok(v) => v,
            Err(e) => match e {},
        };
        let Ok(b) = bump(x[i]);
        let c = match bump(a) {
            Ok(v) => v,
            Err(n) => never_to_u32(n),
        };
        let none: Option<Infallible> = None;
        let d = match none {
            None => 5u32,
        };
        *o = a + b + c + d;
    }
}

#[kernel]
pub fn assume_init_empty(flag: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        if flag[i] == 1 {
            #[allow(invalid_value)]
            unsafe { core::mem::MaybeUninit::<Infallible>::uninit().assume_init() };
        }
        if flag[i] == 2 {
            #[allow(invalid_value)]
            let _pair: (u32, Never) = unsafe { core::mem::MaybeUninit::uninit().assume_init() };
        }
        *o = flag[i] + 10;
    }
}
