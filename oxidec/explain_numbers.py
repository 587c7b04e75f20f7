"""The `oxidec explain` pages of the codes about the number and char types (merged into
explain.PAGES; codes.py lists their summaries)."""

SUMMARIES: dict[str, str] = {
    "E0604": "a cast with `as` that Rust does not define for the source type",
    "E0689": "method call on a number literal whose type is not known yet",
}

PAGES: dict[str, str] = {
    "E0689": """\
A method of a number called on a literal (or a binding of one) whose type nothing has fixed
yet: `2.0.powi(2)` could be `f32` or `f64`. Give the literal a suffix (`2.0f32`) or the
binding a type (`let x: f32 = 2.0;`).

    let b = 2.pow(3);              // error[E0689]
    let b = 2_i32.pow(3);          // ok
""",
    "E0604": """\
In rustc: only primitive types can be cast with `as`. oxidec reports those casts as E0606
(a `ThreadIndex`: use `idx.get()` to get its `usize`) and gives E0604 for `as char` from
anything but `u8`, whose every value is a char: any other integer may be a surrogate or
too large. Convert it with `char::from_u32`, which says so with `None`.

    let c = x as char;             // error[E0604] for x: u32
    let c = char::from_u32(x);     // Option<char>
""",
}
