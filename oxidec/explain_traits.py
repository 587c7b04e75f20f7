"""The `oxidec explain` pages of the codes about traits (merged into explain.PAGES; codes.py
lists their summaries)."""

SUMMARIES: dict[str, str] = {
    "E0046": "trait impl leaves out a required item",
    "E0119": "two impls of one trait for one type",
    "E0220": "associated type not found",
    "E0283": "type annotations needed to pick a trait impl",
    "E0368": "compound assignment operator on a type without its `OpAssign` impl",
    "E0405": "unknown trait",
    "E0407": "method in a trait impl that the trait does not declare",
    "E0437": "associated type in a trait impl that the trait does not declare",
    "E0438": "associated const in a trait impl that the trait does not declare",
    "E0576": "trait path naming an item the trait does not have",
    "E0790": "associated function of a trait called without naming the implementing type",
}

PAGES: dict[str, str] = {
    "E0046": """\
An `impl Trait for Type` defines every method, const and type of the trait that has no
default. Those with a default (a method with a body, `const N: u32 = 4;`) may be left out:
the impl then uses the trait's.

    trait Shape { fn area(&self) -> f32; fn twice(&self) -> f32 { 2.0 * self.area() } }
    impl Shape for Sq {}                                          // error[E0046]: `area`
    impl Shape for Sq { fn area(&self) -> f32 { self.0 * self.0 } }  // ok
""",
    "E0119": """\
A type implements a trait at most once (for each set of the trait's generic arguments:
`Mul<f32>` and `Mul<Complex>` are two traits). Merge the two impls.

    impl Halve for f32 { .. }
    impl Halve for f32 { .. }        // error[E0119]
""",
    "E0220": """\
`Self::Out` and `<T as Trait>::Out` name an associated type that the type's impls define
(`type Out = f32;`). The name is misspelled, or no impl of the type defines it.
""",
    "E0283": """\
Which impl to call depends on a type the code does not give: `Default::default()` and
`x.into()` need the type of their result. Give the binding a type:

    let v = Default::default();        // error[E0283]
    let v: V2 = Default::default();    // ok
""",
    "E0368": """\
`a += b` on a user type calls `AddAssign::add_assign(&mut a, b)`; the type needs that impl
(an `impl Add` alone is not enough, as in Rust). Implement `AddAssign<B>` for it, or write
`a = a + b`.
""",
    "E0405": """\
An `impl Trait for Type` (or a bound) names a trait that is not in scope: define it, or
import it with `use`. core's traits (`core::ops::Add`, `Default`, `PartialEq`, `From`, ...)
are known by name.
""",
    "E0407": """\
Every method of a trait impl is declared by the trait. Add the method to the trait (with
or without a default body), or move it to an inherent `impl Type { .. }`.

    trait Scale { fn scale(self, k: f32) -> Self; }
    impl Scale for V { fn scale(..) {..} fn shift(..) {..} }   // error[E0407]: `shift`
""",
    "E0437": """\
A `type Name = ..;` in a trait impl must be an associated type the trait declares
(`type Name;` in the trait, or `Output` of core's operator traits).
""",
    "E0438": """\
A `const N: T = ..;` in a trait impl must be an associated const the trait declares
(`const N: T;` in the trait). Move other consts to an inherent `impl Type { .. }`.
""",
    "E0576": """\
`Trait::name(..)` names an item of the trait: the trait declares no method or associated
const with that name. Check the spelling, or call the type's own function `Type::name`.
""",
    "E0790": """\
`Trait::f()` with no `self` argument does not say which type's impl to call. Name the
type: `<Type as Trait>::f()` or `Type::f()`.

    let z = Zero::zero();               // error[E0790]
    let z = <f32 as Zero>::zero();      // ok
""",
}
