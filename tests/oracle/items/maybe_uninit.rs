// `core::mem::MaybeUninit`: uninit, write, assume_init, a pointer into it, new.
use core::mem::MaybeUninit;
#[derive(Clone, Copy)]
struct Pair(f32, [u32; 2]);
fn compute(x: f32, i: usize) -> f32 {
    let mut slot: MaybeUninit<Pair> = MaybeUninit::uninit();
    slot.write(Pair(x, [i as u32, 3]));
    let v = unsafe { slot.assume_init() };
    let mut m = MaybeUninit::<f32>::uninit();
    unsafe { m.as_mut_ptr().write(x * 3.0) };
    let w = unsafe { m.assume_init() };
    let z = MaybeUninit::new(2.5f32);
    v.0 + v.1[0] as f32 + v.1[1] as f32 + w + unsafe { z.assume_init() }
}
