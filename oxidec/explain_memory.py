"""The `oxidec explain` pages of the codes about raw pointers and `core::mem` (merged into
explain.PAGES; codes.py lists their summaries)."""

SUMMARIES: dict[str, str] = {
    "E0512": "`transmute` between types of different sizes",
    "E0589": "invalid `repr(align)` attribute (the alignment is not a power of two)",
    "E0732": "explicit discriminants on an enum with payloads need `#[repr(inttype)]`",
    "E0745": "`&raw const` / `&raw mut` of a temporary value",
    "E0784": "a union expression writes more or fewer than one field",
}

PAGES: dict[str, str] = {
    "E0512": """\
`core::mem::transmute::<A, B>(x)` reinterprets the bits of `x` as a `B`, so `A` and `B` must
have the same size.

    let bits: u32 = unsafe { core::mem::transmute(1.0f32) };   // ok: 32 bits each
    let bits: u64 = unsafe { core::mem::transmute(1.0f32) };   // error[E0512]

For a float's bits, `x.to_bits()` / `f32::from_bits(b)` need no `unsafe` at all.
""",
    "E0745": """\
`&raw const e` / `&raw mut e` (and `addr_of!(e)`) make a pointer to a place: a variable, a
field, an element, `*p`. A temporary value such as `a + b` or a function's result has no
place to point to.

    let p = &raw const (a + b);       // error[E0745]
    let s = a + b;
    let p = &raw const s;             // ok
""",
    "E0784": """A union's fields are views of the same bytes, so a union expression gives exactly one of
them its value; the other views read those bytes.

    union Bits { word: u32, real: f32 }
    let b = Bits { word: 1, real: 2.0 };   // error[E0784]
    let b = Bits { real: 2.0 };            // ok: `unsafe { b.word }` is 0x4000_0000
""",
    "E0589": """\
`#[repr(align(N))]` makes a struct or union at least N-byte aligned (and its size a multiple
of N); N must be a power of two.

    #[repr(align(16))] struct Line { v: u32 }    // ok: 16-byte aligned, 16 bytes long
    #[repr(align(24))] struct Odd { v: u32 }     // error[E0589]
""",
    "E0732": """\
An enum whose variants carry data may give its variants explicit discriminants only with an
integer representation, which fixes where and how wide the tag is.

    enum Shape { Dot, Line(f32), Far = 9 }                 // error[E0732]
    #[repr(u8)] enum Shape { Dot, Line(f32), Far = 9 }     // ok
""",
}
