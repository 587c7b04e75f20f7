"""The abstract syntax tree: frozen dataclasses, every node with a `Span`.

Nodes compare by identity (`eq=False`), so later phases key side tables (types, resolutions)
on the node objects themselves. Constructors are keyword-only. Names match the grammar rules
(`let_stmt` -> `LetStmt`) and the lowering functions (`lower_let_stmt`).
"""
from __future__ import annotations

from dataclasses import dataclass

from .span import Span

node = dataclass(frozen=True, eq=False, kw_only=True, slots=True)


@node
class Node:
    span: Span


# ---------------------------------------------------------------------------
# Paths and types

@node
class PathSegment(Node):
    name: str
    generic_args: tuple["TypeExpr | Expr", ...] = ()  # `SharedArray<f32, 256>`, `index_2d::<16>`


@node
class Path(Node):
    segments: tuple[PathSegment, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.segments)

    @property
    def last(self) -> PathSegment:
        return self.segments[-1]


@node
class TypeExpr(Node):
    pass


@node
class PathType(TypeExpr):
    path: Path  # `f32`, `DisjointSlice<f32>`, `thread::Index2D<16>`
    qself: QSelf | None = None  # `<T as Tr>::Out`: path holds the segments after it


@node
class RefType(TypeExpr):
    inner: TypeExpr
    mutable: bool


@node
class PtrType(TypeExpr):
    inner: TypeExpr
    mutable: bool


@node
class ArrayType(TypeExpr):
    elem: TypeExpr
    length: "Expr"


@node
class SliceType(TypeExpr):
    elem: TypeExpr


@node
class TupleType(TypeExpr):
    elems: tuple[TypeExpr, ...]  # () is the unit type


@node
class NeverType(TypeExpr):
    pass


@node
class InferType(TypeExpr):
    pass  # `_`


# ---------------------------------------------------------------------------
# Patterns

@node
class Pattern(Node):
    pass


@node
class IdentPat(Pattern):
    name: str
    mutable: bool = False
    by_ref: bool = False
    sub: Pattern | None = None  # `x @ 1..=5`


@node
class WildPat(Pattern):
    pass


@node
class TuplePat(Pattern):
    elems: tuple[Pattern, ...]


@node
class LitPat(Pattern):
    value: "LitExpr"  # may be a negated literal, see `negative`
    negative: bool = False


@node
class RangePat(Pattern):
    lo: "LitPat | PathPat"  # `i32::MIN..=-1`
    hi: "LitPat | PathPat"
    inclusive: bool


@node
class PathPat(Pattern):
    path: Path  # `None`, `Color::Red`


@node
class TupleStructPat(Pattern):
    path: Path  # `Some(x)`
    elems: tuple[Pattern, ...]


@node
class OrPat(Pattern):
    alts: tuple[Pattern, ...]


@node
class RestPat(Pattern):
    """`..` inside a tuple, tuple-struct or slice pattern."""


@node
class FieldPat(Node):
    name: str  # `x: PAT`, or the shorthand `x` / `ref mut x` (pat is then an IdentPat)
    pat: Pattern


@node
class StructPat(Pattern):
    path: Path  # `S { a, b: 0, .. }`, `Shape::Rect { w, h }`
    fields: tuple[FieldPat, ...]
    rest: bool = False


@node
class RefPat(Pattern):
    inner: Pattern  # `&PAT`


@node
class SlicePat(Pattern):
    elems: tuple[Pattern, ...]  # `[a, b]`, `[first, ..]`, `[x, rest @ ..]`


# ---------------------------------------------------------------------------
# Expressions

@node
class Expr(Node):
    pass


@node
class LitExpr(Expr):
    kind: str  # "int" | "float" | "bool" | "str" | "char"
    value: object  # int, float, bool, str
    suffix: str | None = None  # "u32", "f32", ...


@node
class PathExpr(Expr):
    path: Path
    qself: QSelf | None = None  # `<S as Tr>::f`: path holds the segments after it


@node
class CallExpr(Expr):
    func: Expr
    args: tuple[Expr, ...]


@node
class MethodCallExpr(Expr):
    receiver: Expr
    method: str
    method_span: Span
    generic_args: tuple[TypeExpr | Expr, ...]
    args: tuple[Expr, ...]


@node
class FieldExpr(Expr):
    base: Expr
    name: str  # a field name or a tuple index ("0")
    name_span: Span


@node
class IndexExpr(Expr):
    base: Expr
    index: Expr


@node
class UnaryExpr(Expr):
    op: str  # "-" | "!" | "*"
    operand: Expr


@node
class RefExpr(Expr):
    mutable: bool
    operand: Expr
    raw: bool = False  # `&raw const x` / `&raw mut x` / `addr_of!(x)`: a raw pointer


@node
class BinaryExpr(Expr):
    op: str  # "+" "-" "*" "/" "%" "&" "|" "^" "<<" ">>" "==" "!=" "<" "<=" ">" ">=" "&&" "||"
    lhs: Expr
    rhs: Expr
    op_span: Span


# The MIR operation (mir.syntax.BINARY_OPS) each arithmetic, bitwise and comparison operator
# means; `&&` and `||` are control flow, not operations.
BINOPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "bitand",
          "|": "bitor", "^": "bitxor", "<<": "shl", ">>": "shr", "==": "eq", "!=": "ne",
          "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


@node
class AssignExpr(Expr):
    lhs: Expr
    rhs: Expr


@node
class CompoundAssignExpr(Expr):
    op: str  # the binary operator without "=": "+" for "+="
    lhs: Expr
    rhs: Expr
    op_span: Span


@node
class CastExpr(Expr):
    expr: Expr
    ty: TypeExpr


@node
class RangeExpr(Expr):
    lo: Expr | None
    hi: Expr | None
    inclusive: bool


@node
class LetExpr(Expr):
    """`let PAT = EXPR` as the condition of `if let` / `while let`."""

    pat: Pattern
    scrutinee: Expr


@node
class TryExpr(Expr):
    """`e?` on an `Option` or a `Result`."""

    expr: Expr


@node
class ClosureParam(Node):
    pat: Pattern
    ty: TypeExpr | None


@node
class ClosureExpr(Expr):
    params: tuple[ClosureParam, ...]
    body: Expr
    is_move: bool = False
    ret: TypeExpr | None = None  # `|k: usize| -> f32 { .. }` (the body is then a block)


@node
class MatchesExpr(Expr):
    """`matches!(scrutinee, PAT if guard)`."""

    scrutinee: Expr
    pat: Pattern
    guard: Expr | None = None


@node
class Block(Node):
    stmts: tuple["Stmt", ...]
    tail: Expr | None  # the value of the block; None means `()`


@node
class BlockExpr(Expr):
    block: Block
    unsafe: bool = False
    label: str | None = None


@node
class IfExpr(Expr):
    cond: Expr  # may be a LetExpr
    then: Block
    else_: Expr | None  # a BlockExpr or another IfExpr


@node
class WhileExpr(Expr):
    cond: Expr  # may be a LetExpr
    body: Block
    label: str | None = None
    attrs: tuple["Attribute", ...] = ()  # `#[unroll]` on the loop


@node
class LoopExpr(Expr):
    body: Block
    label: str | None = None
    attrs: tuple["Attribute", ...] = ()  # `#[unroll]` on the loop


@node
class ForExpr(Expr):
    pat: Pattern
    iter: Expr
    body: Block
    label: str | None = None
    attrs: tuple["Attribute", ...] = ()  # `#[unroll]` on the loop


@node
class BreakExpr(Expr):
    label: str | None = None
    value: Expr | None = None


@node
class ContinueExpr(Expr):
    label: str | None = None


@node
class ReturnExpr(Expr):
    value: Expr | None = None


@node
class MatchArm(Node):
    pat: Pattern
    guard: Expr | None
    body: Expr


@node
class MatchExpr(Expr):
    scrutinee: Expr
    arms: tuple[MatchArm, ...]


@node
class TupleExpr(Expr):
    elems: tuple[Expr, ...]  # () is the unit value


@node
class ArrayExpr(Expr):
    elems: tuple[Expr, ...]


@node
class ArrayRepeatExpr(Expr):
    value: Expr
    count: Expr


@node
class StructExpr(Expr):
    path: Path
    fields: tuple[tuple[str, Expr], ...]  # shorthand `Foo { x }` becomes ("x", PathExpr x)
    base: Expr | None = None  # struct update syntax: `S { x: 1, ..base }`


@node
class MacroCallExpr(Expr):
    name: str  # "gpu_printf", "gpu_assert", ...
    args: tuple[Expr, ...]


# ---------------------------------------------------------------------------
# Statements

@node
class Stmt(Node):
    pass


@node
class LetStmt(Stmt):
    pat: Pattern
    ty: TypeExpr | None
    init: Expr | None
    else_: "Block | None" = None  # `let PAT = EXPR else { diverge };`
    attrs: tuple["Attribute", ...] = ()  # lint levels: `#[allow(arithmetic_overflow)]`


@node
class ExprStmt(Stmt):
    expr: Expr
    semi: bool
    attrs: tuple["Attribute", ...] = ()  # lint levels (a loop's `#[unroll]` is the loop's)


@node
class ItemStmt(Stmt):
    item: "Item"  # `static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;`, `const`


# ---------------------------------------------------------------------------
# Items

@node
class Attribute(Node):
    name: str  # "kernel", "device", "launch_bounds", "derive", "cuda_module", ...
    args: tuple[Expr, ...] | None  # None: no parentheses; `#[derive(Clone, Copy)]` -> paths


@node
class Item(Node):
    attrs: tuple[Attribute, ...]
    name: str
    name_span: Span
    generics: Generics | None = None  # `fn f<T>`, `struct S<const N: usize>`, `impl<T> S<T>`


@node
class Param(Node):
    pat: Pattern  # an IdentPat (possibly `mut`) or `_`
    ty: TypeExpr


@node
class SelfParam(Node):
    """`self`, `mut self`, `&self`, `&mut self` or `self: T` (T may be `Self`, `&Self`, ...)."""

    by_ref: bool
    mutable: bool  # `&mut self`, or `mut self` (a mutable binding) when not by_ref
    ty: TypeExpr | None = None  # the explicit type of `self: T`


@node
class FnItem(Item):
    is_pub: bool
    is_unsafe: bool
    params: tuple[Param, ...]
    ret: TypeExpr | None
    body: Block
    self_param: SelfParam | None = None  # a method's receiver (inside an `impl`)
    is_const: bool = False  # `const fn`


@node
class HostFn(Item):
    """A `fn` with neither `#[kernel]` nor `#[device]`: recorded, its body skipped unparsed."""


@node
class FieldDef(Node):
    name: str
    ty: TypeExpr


@node
class StructItem(Item):
    fields: tuple[FieldDef, ...]  # a tuple struct's fields are named "0", "1", ...
    shape: str = "named"  # "named" `S { a: T }` | "tuple" `S(T, U);` | "unit" `S;` | "union"


@node
class VariantDef(Node):
    name: str
    kind: str  # "unit" | "tuple" | "struct"
    fields: tuple[FieldDef, ...]  # a tuple variant's fields are named "0", "1", ...
    discr: Expr | None = None


@node
class EnumItem(Item):
    variants: tuple[VariantDef, ...]


@node
class ConstItem(Item):
    ty: TypeExpr
    value: Expr


@node
class StaticItem(Item):
    mutable: bool
    ty: TypeExpr
    value: Expr


@node
class UseImport(Node):
    """One leaf of a `use` tree: `a::b::c as d` is path ("a", "b", "c"), alias "d";
    `a::b::*` is path ("a", "b") with glob; `a::{self}` is path ("a",)."""

    path: tuple[str, ...]
    alias: str | None = None
    glob: bool = False


@node
class UseItem(Item):
    path_text: str  # "cuda_device::{thread, DisjointSlice}", "super::*"; name is ""
    imports: tuple[UseImport, ...] = ()


@node
class ImplItem(Item):
    """An inherent `impl Type { fn ..; const ..; }` (name is the written type's text)."""

    self_ty: TypeExpr
    items: tuple[Item, ...]


@node
class ModItem(Item):
    items: tuple[Item, ...]


@node
class SkippedItem(Item):
    """A host-only item skipped without parsing (`impl`, `macro_rules!`, `extern crate`, ...)."""

    kind: str


@node
class SourceUnit(Node):
    items: tuple[Item, ...]


# generic parameters, bounds and `where` clauses (their own module, for the line limit)
from .ast_generics import (AssocTypeArg, FnPtrType, FnTraitType, GenericParam, Generics,  # noqa: E402
                           ImplTraitType,
                           TraitBound, WherePredicate)
from .ast_traits import *  # noqa: E402,F401,F403  (TraitItem, TraitImplItem, QSelf, DynType, ..)
from .ast_dump import dump  # noqa: E402,F401  (`oxidec build --emit ast`)
