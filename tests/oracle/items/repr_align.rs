// `#[repr(align(N))]` on structs and unions: the alignment and the size (rounded up to it),
// of the type, of arrays of it and of structs holding it; values keep their fields.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Line { v: u32, w: f32 }

#[derive(Clone, Copy)]
#[repr(align(8))]
struct Small(u8);

#[derive(Clone, Copy)]
#[allow(dead_code)]
#[repr(align(16))]
union Word { bits: u32, f: f32 }

#[derive(Clone, Copy)]
#[repr(C)] // field order kept (oxidec always lays out as C does)
struct Holder { a: u8, line: Line, s: Small }

fn mix(h: Holder, words: [Word; 2]) -> f32 {
    h.a as f32 + h.line.v as f32 + h.line.w + h.s.0 as f32 + unsafe { words[0].f + words[1].bits as f32 }
}

fn compute(x: f32, i: usize) -> f32 {
    use core::mem::{align_of, size_of};
    let sizes = size_of::<Line>() + size_of::<[Line; 3]>() * 10 + size_of::<Small>() * 1000
        + size_of::<Word>() * 10000 + size_of::<Holder>() * 100000;
    let aligns = align_of::<Line>() + align_of::<Small>() * 100 + align_of::<Word>() * 1000
        + align_of::<Holder>() * 10000;
    let h = Holder { a: i as u8, line: Line { v: 3 * i as u32, w: x }, s: Small(7) };
    let words = [Word { f: x * 0.5 }, Word { bits: i as u32 }];
    mix(h, words) + sizes as f32 + aligns as f32 * 0.5
}
