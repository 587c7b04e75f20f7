"""What type checking produces (side tables keyed on AST nodes, read by lowering) and the
per-function context it keeps while checking."""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast
from .. import types as T
from ..consteval import ConstValue
from ..span import Span


# ---------------------------------------------------------------------------
# Results

@dataclass(eq=False)
class Var:
    """A local variable binding (parameter, `let`, pattern binding, loop variable)."""

    name: str
    ty: T.Ty
    mutable: bool
    span: Span


@dataclass(frozen=True)
class LocalRes:
    var: Var


@dataclass(frozen=True)
class ConstRes:
    value: ConstValue


@dataclass(frozen=True)
class StaticRes:
    name: str  # mangled program-wide name of a shared static
    ty: T.Ty  # SharedArrayTy
    mutable: bool
    span: Span
    space: str = "shared"  # "global": a module-level `static` (typeck/statics.py)
    init: bytes | None = None  # its value in C layout


@dataclass(frozen=True)
class FnSig:
    name: str
    kind: str  # "kernel" | "device"
    params: tuple[T.Ty, ...]
    ret: T.Ty
    is_unsafe: bool
    item: ast.FnItem


@dataclass
class TypeckResults:
    expr_ty: dict[ast.Expr, T.Ty] = field(default_factory=dict)
    res: dict[ast.PathExpr, object] = field(default_factory=dict)  # LocalRes | ConstRes | StaticRes
    pat_var: dict[ast.IdentPat, Var] = field(default_factory=dict)
    param_var: dict[ast.Param, Var] = field(default_factory=dict)
    launch_context: dict[str, Var] = field(default_factory=dict)  # kernel -> its context
    calls: dict[ast.CallExpr, object] = field(default_factory=dict)  # FnSig | ApiFn | "Some"
    methods: dict[ast.MethodCallExpr, tuple[str, str]] = field(default_factory=dict)
    generic_values: dict[ast.Expr, tuple[int, ...]] = field(default_factory=dict)
    # the types a `core` function is instantiated at: `size_of::<T>` (T,), `transmute` (A, B)
    core_tys: dict[ast.Expr, tuple[T.Ty, ...]] = field(default_factory=dict)
    panics: dict[ast.MacroCallExpr, object] = field(default_factory=dict)  # typeck/panics.py
    fn_sigs: dict[str, FnSig] = field(default_factory=dict)
    statics: dict[str, StaticRes] = field(default_factory=dict)  # mangled name -> static
    struct_tys: dict[str, T.StructTy] = field(default_factory=dict)
    kernels_unchecked: set[str] = field(default_factory=set)  # #[kernel(unchecked_indexing)]
    atomic_orderings: dict[ast.MethodCallExpr, tuple[str, ...]] = field(default_factory=dict)
    printf_formats: dict[ast.MacroCallExpr, str] = field(default_factory=dict)  # C format
    contracts: dict[str, object] = field(default_factory=dict)  # kernel -> M.LaunchContract
    cluster_shapes: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # kernel ->
    #                                                     `#[cluster_launch(X, Y, Z)]`
    cooperative: set[str] = field(default_factory=set)  # kernels with `#[cooperative_launch]`
    # kernel instance -> `#[launch_bounds(..)]` values written as constant expressions
    launch_bounds: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # (fn instance, id of a `#[unroll(EXPR)]`) -> EXPR's value, for a constant expression
    unroll_counts: dict[tuple[str, int], int] = field(default_factory=dict)
    enum_tys: dict[str, T.EnumTy] = field(default_factory=dict)
    # enum values and patterns (typeck/enums.py, typeck/patterns.py)
    variants: dict[ast.Node, int] = field(default_factory=dict)  # `E::V(..)` expr / pattern
    pat_ty: dict[ast.Pattern, T.Ty] = field(default_factory=dict)  # value a pattern tests
    pat_derefs: dict[ast.Pattern, int] = field(default_factory=dict)  # `&` peeled first
    pat_const: dict[ast.Pattern, object] = field(default_factory=dict)  # literal / (lo, hi)
    binding_mode: dict[ast.IdentPat, str] = field(default_factory=dict)  # "ref" | "ref mut"
    pat_alias: dict[ast.PathPat, ast.IdentPat] = field(default_factory=dict)  # `X` binding
    overloads: dict[ast.Expr, tuple] = field(default_factory=dict)  # typeck/trait_ops.py
    inline_fns: set[str] = field(default_factory=set)  # `index` bodies: inlined, no MIR body
    index_writes: set[ast.Expr] = field(default_factory=set)  # `v[i] = x`: `index_mut`
    # closures and iterator chains (typeck/closures.py, typeck/iterators.py)
    closures: dict[ast.ClosureExpr, object] = field(default_factory=dict)  # -> ClosureInfo
    iter_methods: dict[ast.MethodCallExpr, str] = field(default_factory=dict)  # -> the method
    deref_operands: set = field(default_factory=set)  # `&x` operands of `+`, `==`...: read `*x`
    fn_ids: dict[str, int] = field(default_factory=dict)  # fns used as values (fn_values.py)
    union_fields: dict[str, tuple] = field(default_factory=dict)  # union -> views (unions.py)
    # `f32::max(a, b)` / `f32::max` as a closure -> the method call / closure it stands for
    desugared: dict[ast.Expr, ast.Expr] = field(default_factory=dict)  # typeck/prim_paths.py
    union_views: dict[ast.Expr, tuple] = field(default_factory=dict)  # -> (union, view, type)

    def ty(self, e: ast.Expr) -> T.Ty:
        return self.expr_ty[e]

    def release(self) -> None:
        """Empty the tables, which are keyed by AST nodes (see ItemTable.release)."""
        for value in vars(self).values():
            if isinstance(value, (dict, list, set)):
                value.clear()


# ---------------------------------------------------------------------------
# Helpers

def describe(ty: T.Ty) -> str:
    """How rustc names a type in a message: literals' variables are 'integer' / 'float'."""
    if isinstance(ty, T.InferTy):
        return {"int": "integer", "float": "floating-point number"}.get(ty.kind, "`_`")
    return f"`{ty}`"


def nearest(name: str, candidates) -> str | None:
    import difflib  # only when there is a name to suggest: not on every build's path
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def closest_last_segment(name: str, paths) -> list[str]:
    """API paths whose last segment is close to `name`, closest first (ties in path order)."""
    import difflib
    scored = []
    for p in paths:
        ratio = difflib.SequenceMatcher(None, name, p.split("::")[-1]).ratio()
        if ratio >= 0.6:
            scored.append((-ratio, p))
    return [p for _, p in sorted(scored)]


SCALAR_ASSOC_CONSTS = T.SCALAR_ASSOC_CONSTS  # re-exported: they live with the scalar types
FLOAT_CONSTS = T.FLOAT_CONSTS


@dataclass
class Loop:
    label: str | None
    is_loop: bool  # `loop` (can break with a value) vs while/for
    break_ty: T.Ty | None = None


@dataclass
class FnCtx:
    sig: FnSig
    scopes: list[dict[str, object]] = field(default_factory=list)  # name -> Var | ConstRes | StaticRes
    loops: list[Loop] = field(default_factory=list)
    lits: list[tuple[ast.LitExpr, bool]] = field(default_factory=list)  # (literal, negated)
    lets: list[tuple[Var, Span]] = field(default_factory=list)
    matches: list = field(default_factory=list)  # (match expr, its patterns) for exhaustiveness


