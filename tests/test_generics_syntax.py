"""Generic parameters, bounds and `where` clauses reach the AST whole (the trait checker reads
them from `Item.generics`), and generic items are kernel code for the pre-scanner."""
from __future__ import annotations

from oxidec import ast
from oxidec.diagnostics import DiagnosticSink, render_all
from oxidec.span import SourceFile
from oxidec.resolve.reach import parse_reached


def parsed(src: str) -> ast.SourceUnit:
    """Parsed as the driver does: host items device code names are parsed on a second pass."""
    sink = DiagnosticSink()
    unit, _ = parse_reached(SourceFile("t.rs", src), sink)
    assert not sink.diagnostics, render_all(sink.diagnostics)
    return unit


def bound_text(b: ast.TraitBound) -> str:
    return b.span.text()


def test_fn_params_bounds_and_where() -> None:
    fn = parsed("""
#[device]
fn f<T: Copy + core::ops::Add<Output = T>, F: Fn(f32, T) -> f32, const N: usize, U = f32>(
    x: [T; N], g: F) -> T
where
    T: ?Sized + Default,
    U: Copy,
{ x[0] }
""").items[0]
    g = fn.generics
    assert [(p.name, p.kind) for p in g.params] == [("T", "type"), ("F", "type"),
                                                    ("N", "const"), ("U", "type")]
    t, f, n, u = g.params
    assert [bound_text(b) for b in g.bounds_of("T")] == [
        "Copy", "core::ops::Add<Output = T>", "?Sized", "Default"]
    add = t.bounds[1]
    assert add.path.names == ("core", "ops", "Add")
    (out,) = add.path.last.generic_args
    assert isinstance(out, ast.AssocTypeArg) and out.name == "Output" \
        and out.ty.path.names == ("T",)
    assert g.bounds_of("T")[2].maybe and not t.bounds[0].maybe
    (fn_bound,) = f.bounds
    assert [a.span.text() for a in fn_bound.fn_args] == ["f32", "T"]
    assert fn_bound.fn_ret.span.text() == "f32"
    assert n.ty.span.text() == "usize" and u.default.span.text() == "f32"
    assert [bound_text(b) for b in g.bounds_of("U")] == ["Copy"]
    assert fn.ret.span.text() == "T" and len(fn.params) == 2


def test_generic_struct_enum_and_impl_are_kernel_code() -> None:
    unit = parsed("""
struct Pair<T> { a: T, b: T }
struct Tile<const N: usize>([f32; N]);
enum Maybe<T> where T: Copy { Nothing, Just(T) }
impl<T: Copy> Pair<T> where T: Default {
    fn get(&self) -> T { self.a }
}
#[kernel]
pub fn k(p: Pair<f32>) { let q = p.get(); }
""")
    kinds = [type(i).__name__ for i in unit.items]
    assert kinds == ["StructItem", "StructItem", "EnumItem", "ImplItem", "FnItem"]
    pair, tile, maybe, impl, _ = unit.items
    assert [p.name for p in pair.generics.params] == ["T"]
    assert tile.shape == "tuple" and tile.generics.params[0].kind == "const"
    assert [bound_text(b) for b in maybe.generics.bounds_of("T")] == ["Copy"]
    assert [bound_text(b) for b in impl.generics.bounds_of("T")] == ["Copy", "Default"]
    assert impl.self_ty.span.text() == "Pair<T>"


def test_an_unreached_generic_impl_stays_host_code() -> None:
    unit = parsed("""
struct Other<T> { a: T }
impl<T> Other<T> { fn f(&self) {} }
#[kernel]
pub fn k(x: f32) {}
""")
    skipped = [i for i in unit.items if isinstance(i, ast.SkippedItem)]
    assert [(i.kind, i.name) for i in skipped] == [("impl", "Other")]
