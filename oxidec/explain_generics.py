"""The `oxidec explain` pages of the codes about generic parameters and arguments (merged
into explain.PAGES; codes.py lists their summaries)."""

SUMMARIES: dict[str, str] = {
    "E0573": "a const parameter used where a type is expected",
    "E0747": "a generic argument of the wrong kind (a type for a const parameter or the reverse)",
}

PAGES: dict[str, str] = {
    "E0573": """\
A const generic parameter names a value, not a type.

    fn f<const N: usize>(x: N) {}     // error[E0573]: write `x: [f32; N]` or `x: usize`
""",
    "E0747": """\
Each generic argument must be of the kind its parameter declares: a type for a type
parameter, a constant for a const parameter.

    fn pick<const N: usize>() {}
    pick::<f32>();                    // error[E0747]: type provided when a constant was expected
""",
}
