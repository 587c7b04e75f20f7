// Unions: views of the same bytes (a float's bits, a word's halves, an array of bytes),
// a write to a narrower view keeping the bytes past it, a union inside a struct, passed
// to and returned from functions, and a generic union.
#[derive(Clone, Copy)]
union Bits {
    word: u32,
    real: f32,
    halves: [u16; 2],
    low: u16,
}

#[derive(Clone, Copy)]
union Wide {
    whole: u64,
    parts: [u32; 2],
    bytes: [u8; 8],
    real: f64,
}

#[derive(Clone, Copy)]
union Either<T: Copy> {
    value: T,
    raw: u32,
}

#[derive(Clone, Copy)]
struct Tagged {
    tag: u8,
    bits: Bits,
}

fn make(word: u32) -> Bits {
    Bits { word }
}

fn read_real(b: Bits) -> f32 {
    unsafe { b.real }
}

fn compute(x: f32, i: usize) -> f32 {
    let b = Bits { real: x };
    let word = unsafe { b.word };
    let halves = unsafe { b.halves };
    let mut c = make(word ^ 0x8000_0000);
    c.low = (i as u16).wrapping_mul(3);
    let kept = unsafe { c.word };
    let mut w = Wide { parts: [word, i as u32] };
    let bytes = unsafe { w.bytes };
    w.real = x as f64 * 0.5;
    let top = unsafe { w.parts[1] };
    let t = Tagged { tag: 3, bits: make(kept) };
    let e = Either::<f32> { value: x * 2.0 };
    let raw = unsafe { e.raw };
    read_real(c) + (halves[0] as u32 + halves[1] as u32 + bytes[3] as u32 + bytes[4] as u32)
        as f32 + ((top ^ raw) % 65_536) as f32 + unsafe { t.bits.low } as f32 + t.tag as f32
}
