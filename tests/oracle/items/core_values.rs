// Values of `core` types: `core::ops::Range<T>` built from `a..b` (by value and behind a
// reference) and its fields, `core::ptr::NonNull<T>` (`new_unchecked`, `as_ptr`, `cast`,
// reads through it) and `transmute` between addresses and integers.
use core::ops::Range;
use core::ptr::NonNull;

fn span_of(r: &core::ops::Range<u64>) -> u64 {
    r.end - r.start
}

fn shifted(r: Range<u32>, by: u32) -> Range<u32> {
    r.start + by..r.end + by
}

fn addr_round_trip(p: *mut u32) -> *mut u32 {
    let bits: usize = unsafe { core::mem::transmute::<*mut u32, usize>(p) };
    let nn = unsafe { core::mem::transmute::<usize, NonNull<u32>>(bits) };
    nn.as_ptr()
}

fn compute(x: f32, i: usize) -> f32 {
    let n = (x.to_bits() >> 16) as u64;
    let r: &core::ops::Range<u64> = &(8..16);
    let w: Range<u64> = n..n * 3 + 1;
    let s = shifted(2..(i as u32 + 5), 10);
    let mut cell = [n as u32, 7, i as u32];
    let nn = unsafe { NonNull::new_unchecked(&mut cell[1] as *mut u32) };
    let p = addr_round_trip(nn.as_ptr());
    unsafe { p.write(p.read() * 3 + 1) };
    let again = nn.cast::<u32>();
    let low = unsafe { again.as_ptr().read() } & 0xff;
    let total = span_of(r) + span_of(&w) + (s.end - s.start) as u64 + s.start as u64
        + cell[1] as u64 + low as u64;
    x + total as f32
}
