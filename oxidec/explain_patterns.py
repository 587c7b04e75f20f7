"""The `oxidec explain` pages of the codes about enums and patterns (merged into
explain.PAGES; codes.py lists their summaries)."""

SUMMARIES: dict[str, str] = {
    "E0004": "non-exhaustive patterns in a `match`",
    "E0057": "a closure called with the wrong number of arguments",
    "E0023": "wrong number of fields in a tuple variant pattern",
    "E0026": "struct pattern names a field the struct or variant does not have",
    "E0027": "struct pattern leaves out fields without `..`",
    "E0029": "range pattern on a type that has no ranges",
    "E0030": "range pattern whose lower bound is above its upper bound",
    "E0081": "two enum variants with the same discriminant",
    "E0164": "tuple pattern on something that is not a tuple struct or tuple variant",
    "E0408": "or-pattern alternatives bind different variables",
    "E0416": "one name bound twice in a pattern",
    "E0527": "array pattern with the wrong number of elements",
    "E0529": "array pattern on a value that is not an array",
    "E0531": "unknown tuple struct, tuple variant or unit variant in a pattern",
    "E0532": "pattern of the wrong kind for a variant (unit vs tuple vs struct)",
    "E0533": "struct variant used as a value or a unit pattern",
    "E0552": "unknown `#[repr(..)]` hint",
    "E0559": "struct literal of a variant with an unknown field",
    "E0579": "exclusive range pattern that is empty",
    "E0271": "an iterator adapter whose items have the wrong type",
    "E0525": "a closure that changes its captures passed where an `Fn` is wanted",
    "E0593": "closure with the wrong number of parameters",
    "E0605": "`as` cast of a non-primitive type (an enum with fields)",
}

PAGES: dict[str, str] = {
    "E0004": """\
A `match` must handle every value of its scrutinee. The message lists values no arm
matches; add arms for them, or a wildcard arm `_ => ...`.

    enum Act { Relu, Scaled(f32) }
    match a { Act::Relu => 0.0 }                           // error[E0004]: `Act::Scaled(_)`
    match a { Act::Relu => 0.0, Act::Scaled(s) => s }     // ok
""",
    "E0023": """\
A tuple variant pattern lists as many fields as the variant has (or uses `..`).

    enum Shape { Rect(f32, f32) }
    let Shape::Rect(w) = s;          // error[E0023]
    let Shape::Rect(w, ..) = s;      // ok
""",
    "E0026": """\
A struct pattern names only fields the struct (or struct variant) has.

    enum Shape { Rect { w: f32, h: f32 } }
    if let Shape::Rect { width, .. } = s { }    // error[E0026]
""",
    "E0027": """\
A struct pattern mentions every field, or ends with `..` to ignore the others.

    if let Shape::Rect { w } = s { }        // error[E0027]: missing `h`
    if let Shape::Rect { w, .. } = s { }    // ok
""",
    "E0029": """\
Range patterns (`a..=b`) work on integers, floats and `char` only.

    match flag { false..=true => 1 }    // error[E0029]
""",
    "E0030": """\
The lower bound of a range pattern must not be above the upper bound.

    match n { 10..=1 => 0, _ => 1 }     // error[E0030]
""",
    "E0081": """\
Every variant of an enum needs its own discriminant.

    enum E { A = 1, B = 1 }            // error[E0081]
""",
    "E0164": """\
A tuple pattern `P(..)` needs a tuple struct or a tuple variant; a struct variant is matched
with `P { .. }`.

    enum Shape { Rect { w: f32 } }
    if let Shape::Rect(w) = s { }     // error[E0164]
""",
    "E0408": """\
Each alternative of an or-pattern binds the same variables.

    match p { (x, 0) | (0, y) => 1, _ => 0 }    // error[E0408]
""",
    "E0416": """\
A name is bound once per pattern.

    let (a, a) = (1, 2);             // error[E0416]
""",
    "E0527": """\
An array pattern without `..` has as many elements as the array.

    let [a, b] = [1, 2, 3];          // error[E0527]
    let [a, b, ..] = [1, 2, 3];      // ok
""",
    "E0529": """\
An array pattern `[a, b]` matches arrays only.

    let [a, b] = (1, 2);             // error[E0529]
""",
    "E0531": """\
A pattern names a tuple struct, tuple variant or unit variant that is not in scope.

    if let Sone(x) = v { }           // error[E0531]: did you mean `Some`?
""",
    "E0532": """\
The pattern's form does not fit the variant: a unit variant is written `E::A`, a tuple
variant `E::B(..)`, a struct variant `E::C { .. }`.

    enum E { A, B(i32) }
    match e { E::B => 1, _ => 0 }    // error[E0532]: use `E::B(..)`
""",
    "E0533": """\
A struct variant is built with braces and matched with braces, never used as a plain path.

    enum E { C { x: f32 } }
    let e = E::C;                    // error[E0533]
    let e = E::C { x: 1.0 };         // ok
""",
    "E0552": """\
`#[repr(..)]` on an enum takes an integer type (`u8` .. `u64`, `i8` .. `i64`, `usize`,
`isize`) or `C`.

    #[repr(f32)] enum E { A }        // error[E0552]
""",
    "E0559": """\
A struct variant literal names only the variant's fields.

    enum E { C { x: f32 } }
    let e = E::C { y: 1.0 };         // error[E0559]
""",
    "E0579": """\
An exclusive range pattern `a..b` must contain at least one value.

    match n { 5..5 => 0, _ => 1 }    // error[E0579]
""",
    "E0057": """\
A closure is called with as many arguments as it has parameters.

    let add = |a: f32, b: f32| a + b;
    add(1.0)                         // error[E0057]: takes 2 arguments but 1 was supplied
""",
    "E0271": """\
`chain` joins two iterators with the same item type; `copied`/`cloned` need items that are
references.

    a.iter().chain(0..4)             // error[E0271]: items `&f32` and `i32`
    (0..4).copied()                  // error[E0271]: the items are not references
""",
    "E0525": """\
An `impl Fn(..)` parameter may be called any number of times, also at once; a closure that
assigns to a captured variable is only `FnMut`. Take `impl FnMut(..)` (and `mut f`) instead.

    fn apply(f: impl Fn(u32) -> u32) -> u32 { f(1) }
    apply(|v| { n += v; n })         // error[E0525]
""",
    "E0593": """\
A closure passed to a method takes as many parameters as the method gives it.

    opt.map(|a, b| a + b)            // error[E0593]: `map` passes one value
""",
    "E0605": """\
Only a fieldless enum converts to an integer with `as` (its discriminant).

    enum E { A(f32), B }
    let n = e as u32;                // error[E0605]
""",
    "E0658": """\
An attribute on an expression that is not a statement on its own. rustc attaches the
attribute of `#[a] x += 1;` to the operand `x`, and attributes on expressions need the
unstable `stmt_expr_attributes`; on a `let`, a call statement or a block-like statement
(`unsafe { .. }`, a loop, `{ .. }`) it is fine.

    #[allow(unused)] s += 1;         // error[E0658]
    #[allow(unused)] { s += 1; }     // ok
""",
}
