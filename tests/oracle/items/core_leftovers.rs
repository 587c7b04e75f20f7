// `#[cfg_attr(..)]`, `NonNull::new` / `NonNull::dangling`, and shared references to union
// fields (`&u.f`, `&u.pair.0`).
use core::ptr::NonNull;

#[cfg_attr(all(), derive(Clone, Copy))]
#[cfg_attr(any(), derive(Debug))]
#[cfg_attr(not(any()), repr(C), allow(dead_code))]
struct Cell { v: u32, w: f32 }

#[derive(Clone, Copy)]
#[allow(dead_code)]
union Bits { word: u32, f: f32, pair: (u16, u16) }

fn sum_ref(r: &u32, s: &(u16, u16)) -> u32 { *r + s.0 as u32 * 3 + s.1 as u32 }

fn compute(x: f32, i: usize) -> f32 {
    let c = Cell { v: i as u32, w: x };
    let d = c;
    let b = Bits { f: x };
    let (r, p, hi) = unsafe { (&b.word, &b.pair, &b.pair.1) };
    let via = sum_ref(r, p) + *hi as u32;
    let mut v = 5u32;
    let some = NonNull::new(&mut v as *mut u32);
    let none = NonNull::new(core::ptr::null_mut::<f64>());
    let read = match some { Some(q) => unsafe { *q.as_ptr() }, None => 0 };
    let d64 = NonNull::<f64>::dangling().as_ptr() as usize;
    let d8: NonNull<u8> = NonNull::dangling();
    (c.v + d.v) as f32 + d.w + (via % 65536) as f32 + read as f32 + none.is_none() as u32 as f32
        + (d64 + d8.as_ptr() as usize * 10) as f32
}
