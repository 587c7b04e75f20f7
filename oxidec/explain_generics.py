"""The `oxidec explain` pages of the codes about generic parameters and arguments (merged
into explain.PAGES; codes.py lists their summaries)."""

SUMMARIES: dict[str, str] = {
    "E0275": "too many instances of one generic function (instantiation does not end)",
    "E0573": "a const parameter used where a type is expected",
    "E0747": "a generic argument of the wrong kind (a type for a const parameter or the reverse)",
}

PAGES: dict[str, str] = {
    "E0107": """\
A generic type or function gets the wrong number of generic arguments.

    let t: SharedArray<f32> = ...;          // error[E0107]: SharedArray<T, N> takes two
    let i = thread::index_2d();             // error[E0107]: write index_2d::<N>()
    fn scale<T>(a: T) -> T { a }
    scale::<f32, f64>(1.0);                 // error[E0107]: scale takes one
""",
    "E0275": """\
Each use of a generic function with new type arguments makes one more instance of it. A
function that calls itself with ever larger arguments would need infinitely many:

    fn grow<T: Copy>(x: T, n: u32) -> u32 {
        if n == 0 { 0 } else { grow((x, x), n - 1) }   // error[E0275]
    }
""",
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
