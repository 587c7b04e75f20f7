// `MaybeUninit::uninit()` without a turbofish: `T` inferred from a later `write`, from the
// annotated `let` that receives `as_mut_ptr()`, and from a function's parameter; and
// `MaybeUninit` of enums (`Option<u16>`, a payload enum).
use core::mem::MaybeUninit;

#[derive(Clone, Copy)]
enum Shape { Dot, Line(f32), Box(f32, f32) }

fn fill(slot: &mut MaybeUninit<[f32; 3]>, x: f32) {
    slot.write([x, x + 1.0, x * 2.0]);
}

fn area(s: Shape) -> f32 {
    match s {
        Shape::Dot => 0.5,
        Shape::Line(l) => l,
        Shape::Box(w, h) => w * h,
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let mut a = MaybeUninit::uninit();
    a.write(x * 0.25);
    let av = unsafe { a.assume_init() };
    let mut b = MaybeUninit::uninit();
    let p: *mut u64 = b.as_mut_ptr();
    unsafe { p.write(i as u64 * 3) };
    let bv = unsafe { b.assume_init() };
    let mut c = MaybeUninit::uninit();
    fill(&mut c, x);
    let cv = unsafe { c.assume_init() };
    let mut d = MaybeUninit::<Option<u16>>::uninit();
    d.write(if i % 3 == 0 { None } else { Some(i as u16) });
    let dv = unsafe { d.assume_init() }.unwrap_or(7);
    let mut s: MaybeUninit<Shape> = MaybeUninit::uninit();
    s.write(match i % 3 { 0 => Shape::Dot, 1 => Shape::Line(x), _ => Shape::Box(x, 2.0) });
    let sv = unsafe { s.assume_init() };
    av + bv as f32 + cv[0] + cv[1] + cv[2] + dv as f32 + area(sv)
}
