"""The front end: grammar/oxide.lark + oxidec/syntax (prescan, parse tree -> AST, errors).

Trees are compared as compact S-expressions (`sx`), so a precedence or associativity
mistake shows as a one-line diff: `a + b * c` is `(+ a (* b c))`.
"""
from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import pytest

from oxidec import ast
from oxidec.diagnostics import DiagnosticSink, render_all
from oxidec.span import SourceFile
from oxidec.syntax import build_parser, grammar_text, parse

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# helpers

def parse_src(src: str, name: str = "t.rs") -> tuple[ast.SourceUnit, DiagnosticSink]:
    sink = DiagnosticSink()
    return parse(SourceFile(name, src), sink), sink


def ok(src: str) -> ast.SourceUnit:
    unit, sink = parse_src(src)
    assert not sink.diagnostics, render_all(sink.diagnostics)
    return unit


def errors(src: str, name: str = "t.rs") -> str:
    unit, sink = parse_src(textwrap.dedent(src).lstrip("\n"), name)
    return render_all(sink.diagnostics)


def body(stmts: str) -> ast.Block:
    unit = ok("#[device] fn f() {\n" + stmts + "\n}\n")
    return unit.items[0].body


def expr(text: str) -> ast.Expr:
    b = body(f"let _x = {text};")
    return b.stmts[0].init


def stmts(text: str) -> str:
    return sx(body(text))


def sx(n) -> str:  # noqa: C901 - one line per node kind
    A = ast
    if n is None:
        return "_"
    if isinstance(n, A.LitExpr):
        if n.kind in ("str", "char"):
            return repr(n.value) + (n.suffix or "")
        v = str(n.value).lower() if n.kind == "bool" else str(n.value)
        return v + (n.suffix or "")
    if isinstance(n, A.PathExpr | A.PathType):
        return sx(n.path)
    if isinstance(n, A.Path):
        return "::".join(s.name + (f"<{', '.join(sx(a) for a in s.generic_args)}>"
                                   if s.generic_args else "") for s in n.segments)
    if isinstance(n, A.RefType):
        return "&" + ("mut " if n.mutable else "") + sx(n.inner)
    if isinstance(n, A.PtrType):
        return "*" + ("mut " if n.mutable else "const ") + sx(n.inner)
    if isinstance(n, A.ArrayType):
        return f"[{sx(n.elem)}; {sx(n.length)}]"
    if isinstance(n, A.SliceType):
        return f"[{sx(n.elem)}]"
    if isinstance(n, A.TupleType):
        return "(" + ", ".join(sx(e) for e in n.elems) + ")"
    if isinstance(n, A.NeverType):
        return "!"
    if isinstance(n, A.FnPtrType):
        return f"fn({', '.join(sx(p) for p in n.params)})" + (f" -> {sx(n.ret)}" if n.ret else "")
    if isinstance(n, A.InferType):
        return "_"
    if isinstance(n, A.BinaryExpr):
        return f"({n.op} {sx(n.lhs)} {sx(n.rhs)})"
    if isinstance(n, A.UnaryExpr):
        return f"({n.op} {sx(n.operand)})"
    if isinstance(n, A.RefExpr):
        return f"(&{'mut' if n.mutable else ''} {sx(n.operand)})"
    if isinstance(n, A.AssignExpr):
        return f"(= {sx(n.lhs)} {sx(n.rhs)})"
    if isinstance(n, A.CompoundAssignExpr):
        return f"({n.op}= {sx(n.lhs)} {sx(n.rhs)})"
    if isinstance(n, A.CastExpr):
        return f"(as {sx(n.expr)} {sx(n.ty)})"
    if isinstance(n, A.RangeExpr):
        return f"({'..=' if n.inclusive else '..'} {sx(n.lo)} {sx(n.hi)})"
    if isinstance(n, A.CallExpr):
        return f"(call {sx(n.func)}" + "".join(" " + sx(a) for a in n.args) + ")"
    if isinstance(n, A.MethodCallExpr):
        g = f"::<{', '.join(sx(a) for a in n.generic_args)}>" if n.generic_args else ""
        return f"(.{n.method}{g} {sx(n.receiver)}" + "".join(" " + sx(a) for a in n.args) + ")"
    if isinstance(n, A.FieldExpr):
        return f"(. {sx(n.base)} {n.name})"
    if isinstance(n, A.IndexExpr):
        return f"(index {sx(n.base)} {sx(n.index)})"
    if isinstance(n, A.TupleExpr):
        return "(tuple" + "".join(" " + sx(e) for e in n.elems) + ")"
    if isinstance(n, A.ArrayExpr):
        return "[" + ", ".join(sx(e) for e in n.elems) + "]"
    if isinstance(n, A.ArrayRepeatExpr):
        return f"[{sx(n.value)}; {sx(n.count)}]"
    if isinstance(n, A.StructExpr):
        return f"(struct {sx(n.path)}" + "".join(f" {k}: {sx(v)}" for k, v in n.fields) + ")"
    if isinstance(n, A.MacroCallExpr):
        return f"({n.name}!" + "".join(" " + sx(a) for a in n.args) + ")"
    if isinstance(n, A.LetExpr):
        return f"(let {sx(n.pat)} {sx(n.scrutinee)})"
    if isinstance(n, A.Block):
        parts = [sx(s) for s in n.stmts] + ([sx(n.tail)] if n.tail is not None else [])
        return "{" + " ".join(parts) + "}"
    if isinstance(n, A.BlockExpr):
        return (n.label + ": " if n.label else "") + ("unsafe " if n.unsafe else "") + sx(n.block)
    label = lambda n: n.label + ": " if n.label else ""  # noqa: E731
    if isinstance(n, A.IfExpr):
        return f"(if {sx(n.cond)} {sx(n.then)}" + (f" else {sx(n.else_)}" if n.else_ else "") + ")"
    if isinstance(n, A.WhileExpr):
        return f"({label(n)}while {sx(n.cond)} {sx(n.body)})"
    if isinstance(n, A.LoopExpr):
        return f"({label(n)}loop {sx(n.body)})"
    if isinstance(n, A.ForExpr):
        attrs = "".join(f"#[{sx(a)}] " for a in n.attrs)
        return f"({attrs}{label(n)}for {sx(n.pat)} {sx(n.iter)} {sx(n.body)})"
    if isinstance(n, A.BreakExpr):
        return "(break" + (f" {n.label}" if n.label else "") + \
            (f" {sx(n.value)}" if n.value else "") + ")"
    if isinstance(n, A.ContinueExpr):
        return "(continue" + (f" {n.label}" if n.label else "") + ")"
    if isinstance(n, A.ReturnExpr):
        return "(return" + (f" {sx(n.value)}" if n.value else "") + ")"
    if isinstance(n, A.MatchExpr):
        return f"(match {sx(n.scrutinee)}" + "".join(" " + sx(a) for a in n.arms) + ")"
    if isinstance(n, A.MatchArm):
        return f"[{sx(n.pat)}" + (f" if {sx(n.guard)}" if n.guard else "") + f" => {sx(n.body)}]"
    if isinstance(n, A.IdentPat):
        return ("ref " if n.by_ref else "") + ("mut " if n.mutable else "") + n.name
    if isinstance(n, A.WildPat):
        return "_"
    if isinstance(n, A.TuplePat):
        return "(" + ", ".join(sx(e) for e in n.elems) + ")"
    if isinstance(n, A.LitPat):
        return ("-" if n.negative else "") + sx(n.value)
    if isinstance(n, A.RangePat):
        return f"{sx(n.lo)}{'..=' if n.inclusive else '..'}{sx(n.hi)}"
    if isinstance(n, A.PathPat):
        return "path:" + sx(n.path)
    if isinstance(n, A.TupleStructPat):
        return sx(n.path) + "(" + ", ".join(sx(e) for e in n.elems) + ")"
    if isinstance(n, A.OrPat):
        return "(| " + " ".join(sx(a) for a in n.alts) + ")"
    if isinstance(n, A.LetStmt):
        return f"(let {sx(n.pat)}" + (f": {sx(n.ty)}" if n.ty else "") + \
            (f" = {sx(n.init)}" if n.init else "") + ")"
    if isinstance(n, A.ExprStmt):
        return sx(n.expr) + (";" if n.semi else "")
    if isinstance(n, A.ItemStmt):
        return "(item " + sx(n.item) + ")"
    if isinstance(n, A.Attribute):
        return n.name + ("" if n.args is None else "(" + ", ".join(sx(a) for a in n.args) + ")")
    if isinstance(n, A.Param):
        return f"{sx(n.pat)}: {sx(n.ty)}"
    attrs = "".join(f"#[{sx(a)}] " for a in getattr(n, "attrs", ()))
    if isinstance(n, A.FnItem):
        return (f"({attrs}{'pub ' if n.is_pub else ''}{'unsafe ' if n.is_unsafe else ''}"
                f"fn {n.name}(" + ", ".join(sx(p) for p in n.params) + ")"
                + (f" -> {sx(n.ret)}" if n.ret else "") + f" {sx(n.body)})")
    if isinstance(n, A.HostFn):
        return f"({attrs}hostfn {n.name})"
    if isinstance(n, A.SkippedItem):
        return f"({attrs}skipped {n.kind} {n.name})"
    if isinstance(n, A.ModItem):
        return f"({attrs}mod {n.name}" + "".join(" " + sx(i) for i in n.items) + ")"
    if isinstance(n, A.UseItem):
        return f"({attrs}use {n.path_text})"
    if isinstance(n, A.ConstItem):
        return f"({attrs}const {n.name}: {sx(n.ty)} = {sx(n.value)})"
    if isinstance(n, A.StaticItem):
        return (f"({attrs}static {'mut ' if n.mutable else ''}{n.name}: {sx(n.ty)} = "
                f"{sx(n.value)})")
    if isinstance(n, A.StructItem):
        fields = "".join(f" {f.name}: {sx(f.ty)}" for f in n.fields)
        return f"({attrs}struct {n.name}{fields})"
    if isinstance(n, A.EnumItem):
        variants = "".join(" " + v.name + (
            "(" + ", ".join(sx(f.ty) for f in v.fields) + ")" if v.kind == "tuple" else
            " {" + ", ".join(f"{f.name}: {sx(f.ty)}" for f in v.fields) + "}"
            if v.kind == "struct" else "") for v in n.variants)
        return f"({attrs}enum {n.name}{variants})"
    if isinstance(n, A.SourceUnit):
        return "\n".join(sx(i) for i in n.items)
    raise AssertionError(f"sx: no case for {type(n).__name__}")


def walk(node):
    """Every AST node under node (depth first)."""
    import dataclasses
    yield node
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        items = v if isinstance(v, tuple) else (v,)
        for x in items:
            if isinstance(x, tuple):  # struct literal fields
                x = x[1]
            if isinstance(x, ast.Node):
                yield from walk(x)


# ---------------------------------------------------------------------------
# the grammar itself

def test_grammar_has_no_lalr_conflicts():
    """Lark resolves shift/reduce conflicts silently; keep the grammar free of them."""
    from lark import Lark, logger
    records: list[str] = []

    class Grab(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    handler = Grab()
    old = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        Lark(grammar_text(), parser="lalr", lexer="contextual", debug=True,
             propagate_positions=True, maybe_placeholders=False, start="source_unit")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    assert not [r for r in records if "conflict" in r.lower()], records


def test_grammar_file_is_at_top_level():
    assert (ROOT / "grammar" / "oxide.lark").read_text() == grammar_text()


# ---------------------------------------------------------------------------
# precedence and associativity

@pytest.mark.parametrize("src, tree", [
    ("a + b * c << 2 & d == e || f && g", "(|| (== (& (<< (+ a (* b c)) 2) d) e) (&& f g))"),
    ("a - b - c", "(- (- a b) c)"),
    ("a / b * c % d", "(% (* (/ a b) c) d)"),
    ("a + b * c", "(+ a (* b c))"),
    ("(a + b) * c", "(* (+ a b) c)"),
    ("1 << 2 + 3", "(<< 1 (+ 2 3))"),
    ("a & b | c ^ d", "(| (& a b) (^ c d))"),
    ("a | b ^ c & d", "(| a (^ b (& c d)))"),
    ("a || b && c", "(|| a (&& b c))"),
    ("a && b || c && d", "(|| (&& a b) (&& c d))"),
    ("a == b && c != d", "(&& (== a b) (!= c d))"),
    ("a < b == c > d", None),  # comparisons do not associate
    ("x << 1 < y >> 2", "(< (<< x 1) (>> y 2))"),
    ("-x as u32 as u64", "(as (as (- x) u32) u64)"),
    ("a as f32 / b as f32", "(/ (as a f32) (as b f32))"),
    ("(x as u32) < y", "(< (as x u32) y)"),
    ("x as u32 < y", None),  # rustc reads `u32<` as generic arguments too
    ("x as u32 > y", "(> (as x u32) y)"),
    ("p as *mut f32", "(as p *mut f32)"),
    ("-x.abs()", "(- (.abs x))"),
    ("!a.b.c(1, 2)[3].0.1", "(! (. (. (index (.c (. a b) 1 2) 3) 0) 1))"),
    ("*a.b", "(* (. a b))"),
    ("&mut x[0]", "(&mut (index x 0))"),
    ("&&x", "(& (& x))"),
    ("a - -b", "(- a (- b))"),
    ("!!x", "(! (! x))"),
    ("- - x", "(- (- x))"),
    ("*p + 1", "(+ (* p) 1)"),
    ("a + 1..b * 2", "(.. (+ a 1) (* b 2))"),
    ("0..=n - 1", "(..= 0 (- n 1))"),
    ("a || b..c", "(.. (|| a b) c)"),
    ("..n", "(.. _ n)"),
    ("a..", "(.. a _)"),
    ("..", "(.. _ _)"),
    ("..=5", "(..= _ 5)"),
    ("f(x)(y)", "(call (call f x) y)"),
    ("a[0][1]", "(index (index a 0) 1)"),
    ("(x.f)(1)", "(call (. x f) 1)"),
    ("x.f(1)", "(.f x 1)"),
    ("x.0.1", "(. (. x 0) 1)"),
    ("t.0", "(. t 0)"),
    ("1.max(2)", "(.max 1 2)"),
    ("1.0.max(2.0)", "(.max 1.0 2.0)"),
    ("1..2", "(.. 1 2)"),
    ("(0..n).step_by(2)", "(.step_by (.. 0 n) 2)"),
])
def test_precedence(src, tree):
    if tree is None:
        _, sink = parse_src("#[device] fn f() { let _x = " + src + "; }")
        assert sink.has_errors
    else:
        assert sx(expr(src)) == tree


@pytest.mark.parametrize("src, tree", [
    ("x = y = 3;", "{(= x (= y 3));}"),
    ("x += 1; y <<= 2; z >>= 1; w ^= 3;", "{(+= x 1); (<<= y 2); (>>= z 1); (^= w 3);}"),
    ("a -= 1; b *= 2; c /= 3; d %= 4; e &= 5; f |= 6;",
     "{(-= a 1); (*= b 2); (/= c 3); (%= d 4); (&= e 5); (|= f 6);}"),
    ("x = 0..n;", "{(= x (.. 0 n));}"),
    ("*c_elem = a[i] + b[i];", "{(= (* c_elem) (+ (index a i) (index b i)));}"),
    ("x += a * b + c;", "{(+= x (+ (* a b) c));}"),
])
def test_assignment_is_lowest_and_right_associative(src, tree):
    assert stmts(src) == tree


def test_compound_assign_op_and_span():
    e = body("x <<= 2;").stmts[0].expr
    assert isinstance(e, ast.CompoundAssignExpr) and e.op == "<<"
    assert e.op_span.text() == "<<="


# ---------------------------------------------------------------------------
# literals

@pytest.mark.parametrize("src, kind, value, suffix", [
    ("0", "int", 0, None),
    ("0usize", "int", 0, "usize"),
    ("1_000u32", "int", 1000, "u32"),
    ("0xFFu8", "int", 255, "u8"),
    ("0xff", "int", 255, None),
    ("0x1f32", "int", 0x1F32, None),  # hex digits swallow f32, as in rustc
    ("0o17", "int", 15, None),
    ("0b1010_1010", "int", 170, None),
    ("0b1i64", "int", 1, "i64"),
    ("340282366920938463463374607431768211455", "int", 2**128 - 1, None),  # typeck's to reject
    ("1.0", "float", 1.0, None),
    ("1.", "float", 1.0, None),
    ("1e-3", "float", 0.001, None),
    ("1E3", "float", 1000.0, None),
    ("2.5f32", "float", 2.5, "f32"),
    ("1_000.5_f64", "float", 1000.5, "f64"),
    ("6.02e+23", "float", 6.02e23, None),
    ("1e10f64", "float", 1e10, "f64"),
    ("1f32", "float", 1.0, "f32"),
    ("3f64", "float", 3.0, "f64"),
    ("true", "bool", True, None),
    ("false", "bool", False, None),
    ("'a'", "char", "a", None),
    ("'\\n'", "char", "\n", None),
    ("'\\''", "char", "'", None),
    ("'\\\\'", "char", "\\", None),
    ("'\\x41'", "char", "A", None),
    ("'\\u{1F600}'", "char", "\U0001F600", None),
    ("'}'", "char", "}", None),
    ('"x = {}\\n"', "str", "x = {}\n", None),
    ('"tab\\tq\\"b\\\\s\\0"', "str", 'tab\tq"b\\s\0', None),
    ('"\\u{e9}t\\x7f"', "str", "\u00e9t\x7f", None),
    ('"a\\\n     b"', "str", "ab", None),  # line continuation
    ('"two\nlines"', "str", "two\nlines", None),
    ('"{ unbalanced"', "str", "{ unbalanced", None),
])
def test_literals(src, kind, value, suffix):
    e = expr(src)
    assert isinstance(e, ast.LitExpr)
    got = e.value
    if kind == "float":  # kept exact (a Decimal) until its type is known; float() is f64
        from oxidec.syntax.literals import Decimal
        assert isinstance(got, Decimal)
        got = float(got)
    assert (e.kind, got, e.suffix) == (kind, value, suffix)
    assert type(got) is type(value)
    assert e.span.text() == src


@pytest.mark.parametrize("src", ["340282366920938463463374607431768211456",
                                 "0x1_0000_0000_0000_0000_0000_0000_0000_0000u8",
                                 "0b1" + "0" * 128, "0o" + "7" * 44, "9" * 5000 + "i64"])
def test_integer_literal_too_large(src):
    """Past u128::MAX is rustc's "integer literal is too large", whatever the suffix; a
    literal of more than 4300 digits is not a Python ValueError."""
    from oxidec.syntax.literals import LiteralError, decode_int
    with pytest.raises(LiteralError, match="integer literal is too large"):
        decode_int(src)


def test_negative_literal_is_unary_minus():
    assert sx(expr("-1")) == "(- 1)"
    assert sx(expr("-1.5f32")) == "(- 1.5f32)"


@pytest.mark.parametrize("src, message", [
    ("1u7", "invalid suffix `u7` for number literal"),
    ("1.5u32", "invalid suffix `u32` for float literal"),
    ("0b102", "invalid digit for a base 2 literal"),
    ("0o9", "invalid digit for a base 8 literal"),
    ("0x", "no valid digits found for number"),
    ("'\\q'", "unknown character escape: `q`"),
    ('"\\q"', "unknown character escape: `q`"),
    ("'\\x80'", "out of range hex escape"),
    ("'\\u{110000}'", "invalid unicode character escape"),
])
def test_bad_literals(src, message):
    _, sink = parse_src("#[device] fn f() { let _x = " + src + "; }")
    assert [d.message for d in sink.diagnostics] == [message]
    assert sink.diagnostics[0].code == "OX0001"


def test_bad_literal_rendering():
    assert errors("""
        #[kernel] fn k() { let x = 1u7; let y = 0b12; }
    """) == textwrap.dedent("""\
        error[OX0001]: invalid suffix `u7` for number literal
         --> t.rs:1:28
          |
        1 | #[kernel] fn k() { let x = 1u7; let y = 0b12; }
          |                            ^^^ invalid suffix `u7`
          |
          = help: the suffix must be one of the numeric types (`u32`, `isize`, `f32`, etc.)

        error[OX0001]: invalid digit for a base 2 literal
         --> t.rs:1:44
          |
        1 | #[kernel] fn k() { let x = 1u7; let y = 0b12; }
          |                                            ^

        error: aborting due to 2 previous errors

        For more information about this error, try `oxidec explain OX0001`.
    """)


# ---------------------------------------------------------------------------
# other expressions

@pytest.mark.parametrize("src, tree", [
    ("()", "(tuple)"),
    ("(1,)", "(tuple 1)"),
    ("(1, 2.5, 'c', \"s\", true)", "(tuple 1 2.5 'c' 's' true)"),
    ("(1, 2,)", "(tuple 1 2)"),
    ("(x)", "x"),
    ("[]", "[]"),
    ("[1, 2, 3]", "[1, 2, 3]"),
    ("[1, 2, 3,]", "[1, 2, 3]"),
    ("[0.0f32; 16]", "[0.0f32; 16]"),
    ("[[0u32; 4]; N]", "[[0u32; 4]; N]"),
    ("Point { x: 1, y }", "(struct Point x: 1 y: y)"),
    ("Point { x: 1, y: 2, }", "(struct Point x: 1 y: 2)"),
    ("geom::Point {}", "(struct geom::Point)"),
    ("thread::index_2d::<16>()", "(call thread::index_2d<16>)"),
    ("DynamicSharedArray::<f32>::get()", "(call DynamicSharedArray<f32>::get)"),
    ("x.foo::<u32, 4>(1)", "(.foo::<u32, 4> x 1)"),
    ("SharedArray::<f32, 256>::UNINIT", "SharedArray<f32, 256>::UNINIT"),
    ("f::<{ N * 2 }, -1, true>()", "(call f<{(* N 2)}, (- 1), true>)"),
    ("gpu_printf!(\"x = {}\\n\", x)", "(gpu_printf! 'x = {}\\n' x)"),
    ("gpu_assert!(x < n)", "(gpu_assert! (< x n))"),
    ("m![1, 2]", "(m! 1 2)"),
    ("cuda_device::gpu_printf!(\"\")", "(cuda_device::gpu_printf! '')"),
    ("if a { 1 } else { 2 }", "(if a {1} else {2})"),
    ("if a { 1 } else if b { 2 } else { 3 }", "(if a {1} else (if b {2} else {3}))"),
    ("match x { _ => 0 }", "(match x [_ => 0])"),
    ("unsafe { *p }", "unsafe {(* p)}"),
    ("{ let a = 1; a }", "{(let a = 1) a}"),
    ("'a: { break 'a 1; }", "'a: {(break 'a 1);}"),
    ("loop { break 5 }", "(loop {(break 5)})"),
])
def test_expressions(src, tree):
    assert sx(expr(src)) == tree


def test_return_break_continue():
    assert stmts("return;") == "{(return);}"
    assert stmts("return a + b") == "{(return (+ a b))}"
    assert stmts("loop { break }") == "{(loop {(break)})}"
    assert stmts("'outer: loop { 'inner: while c { break 'outer; continue 'inner; continue } }") \
        == "{('outer: loop {('inner: while c {(break 'outer); (continue 'inner); (continue)})})}"
    assert stmts("let v = loop { break 'l x * 2; };") == "{(let v = (loop {(break 'l (* x 2));}))}"


# ---------------------------------------------------------------------------
# statements

def test_block_like_statements_need_no_semicolon():
    assert stmts("if c {} *p = 1;") == "{(if c {}) (= (* p) 1);}"
    assert stmts("{ 1 } - 1") == "{{1} (- 1)}"
    assert stmts("match x { _ => {} } (a, b) = t;") == "{(match x [_ => {}]) (= (tuple a b) t);}"
    assert stmts("while c {} loop {} for i in v {} unsafe {} x") \
        == "{(while c {}) (loop {}) (for i v {}) unsafe {} x}"
    assert stmts("if c { 1 } else { 2 };") == "{(if c {1} else {2});}"


def test_trailing_block_like_statement_is_the_tail():
    b = body("let a = 1;\nif a == 1 { 2 } else { 3 }")
    assert isinstance(b.tail, ast.IfExpr) and len(b.stmts) == 1
    b = body("if a == 1 { 2 } else { 3 };")
    assert b.tail is None and isinstance(b.stmts[0], ast.ExprStmt) and b.stmts[0].semi
    assert b.stmts[0].span.text() == "if a == 1 { 2 } else { 3 };"


def test_struct_literal_not_allowed_in_conditions():
    assert stmts("if x == Foo { a }") == "{(if (== x Foo) {a})}"
    assert stmts("while x < N { i += 1; }") == "{(while (< x N) {(+= i 1);})}"
    assert stmts("for x in arr { }") == "{(for x arr {})}"
    assert stmts("for i in 0.. { }") == "{(for i (.. 0 _) {})}"
    assert stmts("match s { _ => 1 }") == "{(match s [_ => 1])}"
    # inside delimiters a struct literal is fine again
    assert stmts("if x == (Foo { a: 1 }) { }") == "{(if (== x (struct Foo a: 1)) {})}"
    assert stmts("if f(Foo { a: 1 }) { }") == "{(if (call f (struct Foo a: 1)) {})}"
    assert stmts("if unsafe { T[0] } > 0.0 { }") == "{(if (> unsafe {(index T 0)} 0.0) {})}"


def test_let_forms():
    assert stmts("let x;") == "{(let x)}"
    assert stmts("let x: u32;") == "{(let x: u32)}"
    assert stmts("let mut x: f32 = 0.0;") == "{(let mut x: f32 = 0.0)}"
    assert stmts("let (a, b) = (1, 2);") == "{(let (a, b) = (tuple 1 2))}"
    assert stmts("let (a, mut b, _) = t;") == "{(let (a, mut b, _) = t)}"
    assert stmts("let ref r = x; let ref mut m = y;") == "{(let ref r = x) (let ref mut m = y)}"
    assert stmts("let _ = f();") == "{(let _ = (call f))}"


def test_if_let_and_while_let():
    assert stmts("if let Some(c_elem) = c.get_mut(idx) { *c_elem = 1.0; }") \
        == "{(if (let Some(c_elem) (.get_mut c idx)) {(= (* c_elem) 1.0);})}"
    assert stmts("while let Some(x) = it.next() { }") == "{(while (let Some(x) (.next it)) {})}"
    assert stmts("if let A | B = x { } else { }") == "{(if (let (| path:A path:B) x) {} else {})}"


def test_match_arms():
    src = """match x {
        0 => a,
        1 | 2 => { b }
        3..=5 => c,
        -1 => d,
        Some(y) if y > 0 => e,
        None => {}
        Color::Red => return,
        | Q => 6,
        (a, _) => 7,
        'a'..='z' => f,
        -5..=-1 => g,
        Foo::Bar(x, _) => h,
        _ => i
    }"""
    assert stmts(src) == (
        "{(match x [0 => a] [(| 1 2) => {b}] [3..=5 => c] [-1 => d] [Some(y) if (> y 0) => e] "
        "[path:None => {}] [path:Color::Red => (return)] [path:Q => 6] [(a, _) => 7] "
        "['a'..='z' => f] [-5..=-1 => g] [Foo::Bar(x, _) => h] [_ => i])}")
    assert stmts("match x { A => {} -1 => 2, }") == "{(match x [path:A => {}] [-1 => 2])}"
    assert stmts("match x { }") == "{(match x)}"


def test_patterns():
    m = body("match v { (1, true, 'c', \"s\", -2) => 0, x => 1, mut y => 2 }").tail
    tup = m.arms[0].pat
    assert isinstance(tup, ast.TuplePat)
    assert [type(p).__name__ for p in tup.elems] == ["LitPat"] * 5
    assert tup.elems[4].negative and tup.elems[4].value.value == 2
    assert isinstance(m.arms[1].pat, ast.IdentPat) and m.arms[1].pat.name == "x"
    assert m.arms[2].pat.mutable
    rng = body("match v { 1..5 => 0, _ => 1 }").tail.arms[0].pat
    assert isinstance(rng, ast.RangePat) and not rng.inclusive


def test_for_loops_and_unroll():
    assert stmts("for i in 0..n { }") == "{(for i (.. 0 n) {})}"
    assert stmts("for (i, x) in v { }") == "{(for (i, x) v {})}"
    assert stmts("#[unroll] for k in 0..TILE { acc += 1.0; }") \
        == "{(#[unroll] for k (.. 0 TILE) {(+= acc 1.0);})}"
    assert stmts("#[unroll(4)]\n'l: for j in (0..n).step_by(2) { }") \
        == "{(#[unroll(4)] 'l: for j (.step_by (.. 0 n) 2) {})}"


def test_macro_statements():
    assert stmts('gpu_printf!("x = {}\\n", x);\ngpu_assert!(x < n);') \
        == "{(gpu_printf! 'x = {}\\n' x); (gpu_assert! (< x n));}"


def test_items_in_fn_bodies():
    b = body("""
        static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
        const C: u32 = 3;
        use cuda_device::thread;
        fn nested(x: u32) -> u32 { x }
        #[device] fn helper() {}
        struct S { a: u32 }
    """)
    assert sx(b) == (
        "{(item (static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT)) "
        "(item (const C: u32 = 3)) (item (use cuda_device::thread)) "
        "(item (fn nested(x: u32) -> u32 {x})) (item (#[device] fn helper() {})) "
        "(item (struct S a: u32))}")


def test_empty_statements():
    assert stmts(";; let x = 1;;") == "{(let x = 1)}"


def test_attribute_on_let_is_reported():
    assert errors("""
        #[device] fn f() {
            #[inline] let x = 1;
        }
    """) == textwrap.dedent("""\
        error[OX0003]: attribute `inline` is not supported on a `let` statement
         --> t.rs:2:5
          |
        2 |     #[inline] let x = 1;
          |     ^^^^^^^^^ not supported here
          |
          = note: a statement takes `cfg` and the lint levels (`allow`, `expect`, `warn`, `deny`, `forbid`); a loop also `unroll`

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0003`.
    """)


# ---------------------------------------------------------------------------
# types

@pytest.mark.parametrize("src", [
    "f32", "DisjointSlice<f32>", "SharedArray<f32, 256>", "DisjointSlice<f32, thread::Index2D<16>>",
    "Vec<Vec<u8>>", "&[f32]", "&mut [f32]", "*const u8", "*mut f32", "[f32; 4]", "[[u8; 2]; N]",
    "(u32, f32)", "()", "!", "_", "&&u32", "Option<&mut T>", "(f32,)", "*mut *const u8",
])
def test_types(src):
    b = body(f"let _x: {src};")
    ty = b.stmts[0].ty
    assert ty.span.text() == src
    expected = src.replace("(f32,)", "(f32)").replace("&&u32", "&&u32")
    assert sx(ty) == expected


def test_type_nodes():
    fn = ok("#[device] fn f(a: &mut [f32], p: *const u8, t: (u32,)) -> ! { loop {} }").items[0]
    a, p, t = (prm.ty for prm in fn.params)
    assert isinstance(a, ast.RefType) and a.mutable and isinstance(a.inner, ast.SliceType)
    assert isinstance(p, ast.PtrType) and not p.mutable
    assert isinstance(t, ast.TupleType) and len(t.elems) == 1
    assert isinstance(fn.ret, ast.NeverType)
    gen = ok("#[device] fn f(c: DisjointSlice<f32, thread::Index2D<16>>) {}").items[0].params[0].ty
    seg = gen.path.last
    assert seg.name == "DisjointSlice"
    inner = seg.generic_args[1]
    assert isinstance(inner, ast.PathType) and inner.path.names == ("thread", "Index2D")
    lit = inner.path.last.generic_args[0]
    assert isinstance(lit, ast.LitExpr) and lit.value == 16


# ---------------------------------------------------------------------------
# items

def test_fn_items():
    unit = ok("""
#[kernel]
pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {}
#[device]
fn lerp(a: f32, b: f32, t: f32,) -> f32 { a + (b - a) * t }
#[kernel]
pub unsafe fn raw(p: *mut f32) {}
#[kernel] pub(crate) fn vis_crate() {}
""")
    v, lerp, raw, vc = unit.items
    assert sx(v) == "(#[kernel] pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {})"
    assert v.params[2].pat.mutable
    assert sx(lerp) == "(#[device] fn lerp(a: f32, b: f32, t: f32) -> f32 {(+ a (* (- b a) t))})"
    assert raw.is_unsafe and raw.is_pub and not lerp.is_pub
    assert vc.is_pub


def test_attributes():
    unit = ok("""
#[kernel(unchecked_indexing)]
#[launch_bounds(256, 2)]
#[launch_contract(block = (256, 1, 1), domain = N, requires = (N > 0))]
#[cuda_device::kernel]
#[doc = "text"]
fn k() {}
""")
    attrs = unit.items[0].attrs
    assert [a.name for a in attrs] == ["kernel", "launch_bounds", "launch_contract",
                                       "cuda_device::kernel", "doc"]
    assert [sx(a) for a in attrs] == [
        "kernel(unchecked_indexing)", "launch_bounds(256, 2)",
        "launch_contract((= block (tuple 256 1 1)), (= domain N), (= requires (> N 0)))",
        "cuda_device::kernel", "doc('text')"]
    assert isinstance(attrs[2].args[0], ast.AssignExpr)
    assert attrs[1].span.text() == "#[launch_bounds(256, 2)]"
    no_args = ok("#[kernel] fn k() {}").items[0].attrs[0]
    assert no_args.args is None
    empty = ok("#[kernel()] fn k() {}").items[0].attrs[0]
    assert empty.args == ()


def test_derive_and_struct():
    unit = ok("""
#[derive(Clone, Copy)]
pub struct Pair { pub a: f32, #[allow(dead_code)] b: [u32; 2], }
struct Unit;
struct Empty {}
""")
    pair, unit_s, empty = unit.items
    assert sx(pair) == "(#[derive(Clone, Copy)] struct Pair a: f32 b: [u32; 2])"
    assert isinstance(pair.attrs[0].args[0], ast.PathExpr)
    assert pair.fields[0].span.text() == "pub a: f32"
    assert sx(unit_s) == "(struct Unit)" and sx(empty) == "(struct Empty)"


def test_const_static():
    unit = ok("""
const TILE: usize = 16;
pub const MASK: u32 = !0 >> 1;
static mut COUNTER: u32 = 0;
static TABLE: [f32; 3] = [1.0, 2.0, 3.0];
""")
    assert [sx(i) for i in unit.items] == [
        "(const TILE: usize = 16)", "(const MASK: u32 = (>> (! 0) 1))",
        "(static mut COUNTER: u32 = 0)", "(static TABLE: [f32; 3] = [1.0, 2.0, 3.0])"]
    assert unit.items[2].mutable and not unit.items[3].mutable


@pytest.mark.parametrize("src, text", [
    ("use super::*;", "super::*"),
    ("use cuda_device::{thread, DisjointSlice, warp::*};",
     "cuda_device::{thread, DisjointSlice, warp::*}"),
    ("use cuda_device::{kernel, thread, DisjointSlice};",
     "cuda_device::{kernel, thread, DisjointSlice}"),
    ("use cuda_host::cuda_launch;", "cuda_host::cuda_launch"),
    ("pub use a::b as c;", "a::b as c"),
    ("use std::{self, io::{Read, Write,}};", "std::{self, io::{Read, Write}}"),
    ("use cuda_device :: { thread } ;", "cuda_device::{thread}"),
    ("use x;", "x"),
    ("use std::sync::Arc;", "std::sync::Arc"),
    ("use ::core::ptr;", "::core::ptr"),
])
def test_use_items(src, text):
    item = ok(src).items[0]
    assert isinstance(item, ast.UseItem)
    assert item.path_text == text and item.name == ""


def test_modules():
    unit = ok("""
#[cuda_module]
mod kernels {
    use super::*;
    #[kernel] pub fn k() {}
    mod inner { const X: u32 = 1; }
}
mod plain {}
""")
    assert sx(unit) == ("(#[cuda_module] mod kernels (use super::*) (#[kernel] pub fn k() {}) "
                        "(mod inner (const X: u32 = 1)))\n(mod plain)")


def test_inner_attributes_and_comments_are_ignored():
    unit = ok("""#![no_std]
#![allow(unused)]
//! crate docs
/// item docs
/* block /* nested */ still a comment */
#[kernel] fn k() {
    // line comment with a } brace
    /** doc block */ let x = 1; /* trailing */
}
""")
    assert sx(unit) == "(#[kernel] fn k() {(let x = 1)})"


def test_empty_and_blank_files():
    for src in ["", "   \n\n", "// only a comment\n", "/* c */", "#![no_std]\n", "\ufeff"]:
        unit = ok(src)
        assert unit.items == ()
        assert unit.span.start == 0 and unit.span.end == len(src)


def test_shebang_line():
    assert sx(ok("#!/usr/bin/env run-cargo-script\n#[kernel] fn k() {}\n")) \
        == "(#[kernel] fn k() {})"


# ---------------------------------------------------------------------------
# host code

REALISTIC = """\
use cuda_device::{kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(c_elem) = c.get_mut(idx) {
            *c_elem = a[i] + b[i];
        }
    }

    fn host_helper<'a>(x: &'a str) -> &'a str { x }
}

struct Args<'a> { v: &'a [f32], name: String }

impl<'a> Args<'a> {
    fn len(&self) -> usize { self.v.len() }
}

#[derive(Debug)]
enum Mode { Fast, Slow(u32) }

macro_rules! check { ($e:expr) => { assert!($e) }; }

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ctx = CudaContext::new(0)?;
    let n = 1024;
    let v: Vec<f32> = (0..n).map(|i| i as f32).collect();
    println!("{}", v[0]); // a } in a comment
    let s = "a { in a string";
    let c = '{';
    let lt: &'static str = "x";
    check!(v.len() == n);
    Ok(())
}
"""


def test_host_code_is_skipped():
    unit = ok(REALISTIC)
    assert sx(unit) == textwrap.dedent("""\
        (use cuda_device::{kernel, thread, DisjointSlice})
        (use cuda_host::cuda_launch)
        (#[cuda_module] mod kernels (use super::*) (#[kernel] pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {(let idx = (call thread::index_1d)) (let i = (.get idx)) (if (let Some(c_elem) (.get_mut c idx)) {(= (* c_elem) (+ (index a i) (index b i)));})}) (hostfn host_helper))
        (struct Args v: &[f32] name: String)
        (skipped impl Args)
        (#[derive(Debug)] enum Mode Fast Slow(u32))
        (skipped macro_rules check)
        (hostfn main)""")


def test_host_item_spans_are_exact():
    unit = ok(REALISTIC)
    main = unit.items[-1]
    assert isinstance(main, ast.HostFn) and main.name == "main"
    assert main.span.text().startswith("fn main() -> Result<")
    assert main.span.text().endswith("    Ok(())\n}")
    assert (main.span.line, main.span.col) == (31, 1)
    assert main.name_span.text() == "main" and (main.name_span.line, main.name_span.col) == (31, 4)
    helper = unit.items[2].items[2]
    assert helper.span.text() == "fn host_helper<'a>(x: &'a str) -> &'a str { x }"
    impl = unit.items[4]
    assert impl.kind == "impl" and impl.span.text().startswith("impl<'a> Args<'a> {")
    assert impl.span.text().endswith("}") and impl.name_span.text() == "impl"
    enum = unit.items[5]  # a plain enum is device code now, parsed as a struct is
    assert enum.attrs[0].name == "derive" and enum.span.text().startswith("enum Mode")
    # the kernel after the host items still has exact spans
    vecadd = unit.items[2].items[1]
    assert (vecadd.name_span.line, vecadd.name_span.col) == (9, 12)


@pytest.mark.parametrize("src, tree", [
    ("impl Foo { fn f(&self) {} }", "(skipped impl Foo)"),  # parsed if device code names Foo
    ("unsafe impl Send for Foo {}", "(skipped impl )"),
    ("pub trait T { fn f(&self) -> u32; }", "(skipped trait T)"),
    ("type Alias<T> = Vec<T>;", "(skipped type Alias)"),
    ("extern crate alloc;", "(skipped extern crate alloc)"),
    ('extern "C" { fn puts(s: *const u8); }', "(skipped extern )"),
    ('unsafe extern "C" { fn puts(s: *const u8); }', "(skipped extern )"),  # edition 2024
    ("lazy_static! { static ref X: u32 = 1; }", "(skipped macro lazy_static)"),
    ("thread_local!(static T: u32 = 1);", "(skipped macro thread_local)"),
    ("mod tests;", "(skipped mod tests)"),
    ("struct Wrapper(u32);", "(struct Wrapper 0: u32)"),  # a tuple struct is kernel syntax
    ("struct G<T> { x: T }", "(struct G x: T)"),  # a generic struct is kernel syntax too
    ("struct G2<'a> { x: &'a u32 }", "(struct G2 x: &u32)"),  # lifetimes: device syntax
    ("struct H { cb: Box<dyn Fn(u32)> }", "(skipped struct H)"),
    ("const F: fn(u32) -> u32 = id;", "(const F: fn(u32) -> u32 = id)"),  # a fn pointer
    ("static S: Lazy<u32> = Lazy::new(|| 1);", "(skipped static S)"),
    ("const B: bool = A || C;", "(const B: bool = (|| A C))"),
    ("const M: u32 = A | B;", "(const M: u32 = (| A B))"),
    ("async fn run() { x.await?; }", "(hostfn run)"),
    ('pub extern "C" fn cb() {}', "(hostfn cb)"),
    ("const fn cf() -> u32 { 1 }", "(hostfn cf)"),
    ("#[test] fn t() { assert_eq!(1, 1); }", "(#[test] hostfn t)"),
    # `cfg(test)` is false for the GPU target: the module is gone (syntax/cfg.py)
    ("#[cfg(test)] mod tests { use super::*; #[test] fn t() {} }", ""),
    ("#[cfg(not(test))] mod tests { use super::*; #[test] fn t() {} }",
     "(#[cfg((call not test))] mod tests (use super::*) (#[test] hostfn t))"),
    ("#[inline] pub fn helper(x: u32) -> u32 { x }", "(#[inline] hostfn helper)"),
])
def test_host_items(src, tree):
    assert sx(ok(src)) == tree


@pytest.mark.parametrize("src, message", [
    ("fn foo()\n#[kernel] fn k() {}", "expected one of `->`, `where`, or `{`, found `#`"),
    ("impl Foo\n#[kernel] fn k() {}", "expected one of `::`, `<`, `for`, `where`, or `{`, found `#`"),
    ("fn", "unexpected end of file"),
    ("pub", "unexpected end of file"),
    ("mod", "unexpected end of file"),
    ("macro_rules! m", "expected item, found `macro_rules`"),
    ("mod m { #[x] }", "expected item after attributes, found `}`"),
])
def test_incomplete_host_items_are_errors(src, message):
    unit, sink = parse_src(src)
    assert [d.message for d in sink.diagnostics] == [message]


def test_host_fn_contents_are_never_parsed():
    src = """fn main() {
        let raw = r#"a "quoted" } string"#;
        let bytes = b"}}}";
        let b = b'}';
        let label = 'outer: loop { break 'outer; };
        let f = move |x: &Vec<u8>| -> Option<u8> { x.first().copied() };
        let v = vec![1, 2, 3];
        let t: HashMap<String, Vec<(u8, char)>> = HashMap::new();
        /* nested /* comment } */ still */
        where_clauses::<dyn Trait + 'static>();
    }
    #[kernel] fn k() {}
    """
    unit = ok(src)
    assert sx(unit) == "(hostfn main)\n(#[kernel] fn k() {})"


# ---------------------------------------------------------------------------
# spans

def test_spans_are_exact():
    src = textwrap.dedent("""\
        #[kernel]
        pub fn k(a: &[f32], mut out: DisjointSlice<f32>) {
            let v = a[0].max(a[1]) + 2.0;
            out.get_mut(thread::index_1d());
        }
    """)
    unit = ok(src)
    fn = unit.items[0]
    assert fn.span.text().startswith("pub fn k(") and fn.span.text().endswith("}")
    assert (fn.span.line, fn.span.col) == (2, 1)  # attributes are not part of the item
    assert (fn.name_span.line, fn.name_span.col) == (2, 8)
    assert fn.attrs[0].span.text() == "#[kernel]"
    assert fn.params[1].span.text() == "mut out: DisjointSlice<f32>"
    assert fn.params[1].ty.span.text() == "DisjointSlice<f32>"
    let = fn.body.stmts[0]
    assert let.span.text() == "let v = a[0].max(a[1]) + 2.0;"
    add = let.init
    assert add.span.text() == "a[0].max(a[1]) + 2.0"
    assert add.op_span.text() == "+" and (add.op_span.line, add.op_span.col) == (3, 28)
    call = add.lhs
    assert isinstance(call, ast.MethodCallExpr)
    assert call.method_span.text() == "max"
    assert (call.method_span.line, call.method_span.col) == (3, 18)
    assert call.span.text() == "a[0].max(a[1])"
    assert call.receiver.span.text() == "a[0]"
    stmt = fn.body.stmts[1]
    assert stmt.span.text() == "out.get_mut(thread::index_1d());"
    assert stmt.expr.args[0].func.path.segments[1].span.text() == "index_1d"
    assert fn.body.span.text().startswith("{") and fn.body.span.text().endswith("}")


def test_every_span_lies_inside_its_parent():
    """(An item's attributes come before the item's span, as in rustc.)"""
    import dataclasses
    unit = ok(REALISTIC)
    for node in walk(unit):
        for f in dataclasses.fields(node):
            if f.name == "attrs":
                continue
            v = getattr(node, f.name)
            for child in v if isinstance(v, tuple) else (v,):
                if isinstance(child, tuple):
                    child = child[1]
                if isinstance(child, ast.Node):
                    assert node.span.start <= child.span.start <= child.span.end \
                        <= node.span.end, (node, child)


def test_field_spans_and_tuple_index():
    e = expr("x.0.1")
    assert e.name == "1" and e.name_span.text() == "1"
    assert e.base.name == "0" and e.base.span.text() == "x.0"
    f = expr("p.field")
    assert f.name_span.text() == "field"


def test_struct_literal_shorthand_span():
    e = expr("Point { x: 1, y }")
    name, value = e.fields[1]
    assert name == "y" and isinstance(value, ast.PathExpr) and value.span.text() == "y"


def test_path_segment_spans():
    e = expr("thread::index_2d::<16>()").func
    a, b = e.path.segments
    assert a.span.text() == "thread" and b.span.text() == "index_2d::<16>"
    assert b.generic_args[0].value == 16


def test_labels_keep_their_quote():
    loop = body("'outer: loop { break 'outer; }").tail
    assert loop.label == "'outer" and loop.span.text().startswith("'outer: loop")
    assert loop.body.stmts[0].expr.label == "'outer"


# ---------------------------------------------------------------------------
# syntax errors (exact rustc-style text)

def test_error_missing_semicolon():
    assert errors("""
        #[kernel]
        pub fn k(mut out: DisjointSlice<f32>) {
            let idx = thread::index_1d()
            let i = idx.get();
        }
    """) == textwrap.dedent("""\
        error[OX0001]: expected `;`, found keyword `let`
         --> t.rs:3:33
          |
        3 |     let idx = thread::index_1d()
          |                                 ^ help: add `;` here
        4 |     let i = idx.get();
          |     --- unexpected token

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_expected_expression():
    assert errors("""
        #[kernel]
        pub fn k(x: &[f32]) {
            let y = x[0] + * ;
        }
    """) == textwrap.dedent("""\
        error[OX0001]: expected expression, found `;`
         --> t.rs:3:22
          |
        3 |     let y = x[0] + * ;
          |                      ^ expected expression

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_expected_expression_close_paren():
    assert errors("#[kernel] fn k() { f(1, ); g(); let a = (); let b = (,); }") \
        == textwrap.dedent("""\
        error[OX0001]: expected expression, found `,`
         --> t.rs:1:54
          |
        1 | #[kernel] fn k() { f(1, ); g(); let a = (); let b = (,); }
          |                                                      ^ expected expression

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_two_tokens():
    assert errors("#[kernel] fn k() { f(1 2); }") == textwrap.dedent("""\
        error[OX0001]: expected one of `(`, `)`, `,`, `.`, `?`, `[`, or an operator, found `2`
         --> t.rs:1:24
          |
        1 | #[kernel] fn k() { f(1 2); }
          |                        ^ expected one of 7 possible tokens

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)
    assert errors("struct S { x: u32 y: u32 }") == textwrap.dedent("""\
        error[OX0001]: expected one of `,`, `::`, `<`, or `}`, found `y`
         --> t.rs:1:19
          |
        1 | struct S { x: u32 y: u32 }
          |                   ^ expected one of 4 possible tokens

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_single_token_and_identifier():
    assert errors("#[kernel] fn (x: u32) {}") == textwrap.dedent("""\
        error[OX0001]: expected identifier, found `(`
         --> t.rs:1:14
          |
        1 | #[kernel] fn (x: u32) {}
          |              ^ expected identifier

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)
    assert errors("#[kernel] fn k() { if x { } else y }").splitlines()[0] \
        == "error[OX0001]: expected one of `if` or `{`, found `y`"


def test_error_keyword_as_identifier():
    assert errors("#[kernel] fn k() { let fn = 3; }") == textwrap.dedent("""\
        error[OX0001]: expected identifier, found keyword `fn`
         --> t.rs:1:24
          |
        1 | #[kernel] fn k() { let fn = 3; }
          |                        ^^ expected identifier, found keyword

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_expected_item():
    assert errors("let x = 1;") == textwrap.dedent("""\
        error[OX0001]: expected item, found keyword `let`
         --> t.rs:1:1
          |
        1 | let x = 1;
          | ^^^ expected item

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_unexpected_end_of_file():
    assert errors("#[kernel] fn k() {}\n#[kernel]\n") == textwrap.dedent("""\
        error[OX0001]: unexpected end of file
         --> t.rs:2:10
          |
        2 | #[kernel]
          |          ^ expected item

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_stray_close():
    assert errors("""
        }
        #[kernel]
        pub fn k() {}
    """) == textwrap.dedent("""\
        error[OX0001]: unexpected closing delimiter: `}`
         --> t.rs:1:1
          |
        1 | }
          | ^ unexpected closing delimiter

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_unclosed_delimiter_in_host_code():
    assert errors("""
        #[kernel] fn k() {}
        fn main() {
            let v = vec![1, 2;
        }
    """) == textwrap.dedent("""\
        error[OX0001]: mismatched closing delimiter: `}`
         --> t.rs:4:1
          |
        3 |     let v = vec![1, 2;
          |                 - unclosed delimiter
        4 | }
          | ^ mismatched closing delimiter

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)
    assert errors("""
        fn main() {
            if x {
        }
    """) == textwrap.dedent("""\
        error[OX0001]: this file contains an unclosed delimiter
         --> t.rs:1:11
          |
        1 | fn main() {
          |           ^ unclosed delimiter

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_unterminated_comment_and_string():
    assert errors("""
        #[kernel]
        pub fn k() {
            /* this comment /* nested */ never ends
        }
    """) == textwrap.dedent("""\
        error[OX0001]: unterminated block comment
         --> t.rs:3:5
          |
        3 |     /* this comment /* nested */ never ends
          |     ^^

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)
    assert errors('#[kernel] fn k() { gpu_printf!("oops); }') == textwrap.dedent("""\
        error[OX0001]: unterminated double quote string
         --> t.rs:1:32
          |
        1 | #[kernel] fn k() { gpu_printf!("oops); }
          |                                ^

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_unknown_characters():
    assert errors("#[kernel] fn k() { let a€ = 1; let b = 2 \x00\x00\x00; }") \
        == textwrap.dedent("""\
        error[OX0001]: unknown start of token: €
         --> t.rs:1:25
          |
        1 | #[kernel] fn k() { let a€ = 1; let b = 2 \x00\x00\x00; }
          |                         ^

        error[OX0001]: unknown start of token: \\u{0}
         --> t.rs:1:42
          |
        1 | #[kernel] fn k() { let a€ = 1; let b = 2 \x00\x00\x00; }
          |                                          ^
          |
          = note: character appears 2 more times

        error: aborting due to 2 previous errors

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_error_unsupported_rust():
    text = errors("""
        #[kernel] fn a<'a>(x: &'a u32) {}
        #[device] fn c<T>(x: T) {}
        #[kernel] fn d() { let s: &'static str = 1; }
        #[device] fn e<'a, 'b: 'a, T>(x: &'a T, v: DisjointSlice<'b, f32>) {}
    """)
    # closures, `?`, generics and lifetimes (in signatures, reference types and generic
    # arguments) parse now; typeck says where they are not supported yet
    assert [ln for ln in text.splitlines() if ln.startswith("error")] == []


def test_error_chained_comparison():
    assert errors("#[kernel] fn k() { if a < b < c {} }") == textwrap.dedent("""\
        error[OX0001]: comparison operators cannot be chained
         --> t.rs:1:29
          |
        1 | #[kernel] fn k() { if a < b < c {} }
          |                         -   ^
          |
          = help: split the comparison into two, joined by `&&`

        error: aborting due to 1 previous error

        For more information about this error, try `oxidec explain OX0001`.
    """)


def test_several_errors_are_reported_and_good_items_kept():
    src = textwrap.dedent("""\
        #[kernel]
        fn a() {
            let x = ;
            let y = 1 + ;
            if x { let z = * ; }
            ok();
        }

        #[device]
        fn b(x: ) -> u32 { 1 }

        struct S { x: u32, y }

        #[kernel]
        fn c() { good(); }
        const N: usize = 5 +;
    """)
    unit, sink = parse_src(src)
    assert [(d.message, d.primary.span.line) for d in sink.diagnostics] == [
        ("expected expression, found `;`", 3),
        ("expected expression, found `;`", 4),
        ("expected expression, found `;`", 5),
        ("expected type, found `)`", 10),
        ("expected `:`, found `}`", 12),
        ("expected expression, found `;`", 16),
    ]
    # what parsed is kept: statements around the errors, and the items after them
    assert sx(unit).splitlines() == ["(#[kernel] fn a() {(if x {}) (call ok);})",
                                     "(#[kernel] fn c() {(call good);})"]


def test_garbage_after_an_item_keeps_the_item():
    unit, sink = parse_src("#[kernel] pub fn k() { let x = 1; } @@@ ### $$$\n")
    assert sx(unit) == "(#[kernel] pub fn k() {(let x = 1)})"
    assert [d.message for d in sink.diagnostics] == ["expected item, found `@`"]


def test_binary_garbage_never_raises():
    import random
    rnd = random.Random(1234)
    for _ in range(30):
        junk = "".join(chr(rnd.randrange(0, 256)) for _ in range(rnd.randrange(1, 200)))
        unit, sink = parse_src(junk)
        assert isinstance(unit, ast.SourceUnit)
        if junk.strip():
            assert sink.has_errors or unit.items == () or unit.items


def test_mutated_sources_never_raise():
    """Random edits of a realistic file: always diagnostics, never a Python exception."""
    import random
    rnd = random.Random(99)
    pieces = list("(){}[];,.:<>=!&|*+-/#'\"") + ["fn", "let", "if", "=>", "::", "..", "'a",
                                                 "1.", "0x", "/*", "*/", "//", "\n", "é"]
    for _ in range(150):
        s = REALISTIC
        for _ in range(rnd.randint(1, 3)):
            p = rnd.randrange(len(s) + 1)
            if rnd.random() < 0.5:
                s = s[:p] + s[p + rnd.randint(1, 4):]
            else:
                s = s[:p] + rnd.choice(pieces) + s[p:]
        unit, sink = parse_src(s)
        assert isinstance(unit, ast.SourceUnit)
        for d in sink.diagnostics:
            render_all([d])


def test_deep_nesting_does_not_overflow():
    for src in ["(" * 3000 + "1" + ")" * 3000, " + ".join(["a"] * 5000)]:
        unit = ok("#[device] fn f() -> u32 { " + src + " }")
        assert unit.items[0].body.tail is not None


def test_no_lark_tokens_in_the_ast():
    """Lark's Token is a str subclass: make sure none leaks into the AST."""
    import dataclasses
    from lark import Token
    unit = ok(REALISTIC + "\n" + "#[device] fn g() { let c = 'x'; 'l: loop { break 'l; } "
              "let t = x.0; let s = S { a: 1 }; m!(\"s\"); }")
    for node in walk(unit):
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                for y in x if isinstance(x, tuple) else (x,):
                    assert not isinstance(y, Token), (node, f.name)


def test_parse_returns_partial_unit_and_check_raises():
    from oxidec.diagnostics import CompileError
    unit, sink = parse_src("#[kernel] fn good() {}\n#[kernel] fn bad() { let = 1; }\n")
    assert [i.name for i in unit.items] == ["good", "bad"]
    with pytest.raises(CompileError):
        sink.check()


# ---------------------------------------------------------------------------
# start-up time (the parser's tables: tests/test_parser_tables.py)

def test_parse_100_lines():
    src = "#[cuda_module]\nmod m {\n    use super::*;\n" + "".join(
        f"    #[device]\n    fn f{i}(a: &[f32], i: usize) -> f32 {{\n"
        f"        let x = a[i] * 2.0f32 + (i as f32).sqrt();\n"
        f"        if x > 1.0 {{ x }} else {{ -x }}\n    }}\n" for i in range(19)) + "}\n"
    assert 95 <= src.count("\n") <= 105
    unit, sink = parse_src(src)
    assert not sink.diagnostics and len(unit.items[0].items) == 20
