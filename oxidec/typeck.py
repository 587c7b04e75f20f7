"""Type checking with Rust's inference for literals and `let`.

Each function body is checked top-down with an expected type (bidirectional), and
unsuffixed literals get inference variables that unify with whatever they meet; at the end
of a body unresolved integer variables default to `i32` and float variables to `f64`, as in
Rust. The result is a set of side tables keyed on AST nodes (`TypeckResults`) that
lowering reads; the AST itself is never modified.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from . import ast, printf
from . import types as T
from .consteval import ConstEvaluator, ConstValue
from .device_api import (
    ATOMIC_METHODS, FLOAT_ATOMIC_METHODS, FLOAT_METHOD_PARAMS, FLOAT_METHODS, INT_METHODS,
    ORDERINGS, SHUFFLE_TYPES, SHUFFLES, ApiFn, api_names, lookup_api,
)
from .diagnostics import DiagnosticSink, Label
from .resolve import ItemTable, attr
from .span import Span


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
    calls: dict[ast.CallExpr, object] = field(default_factory=dict)  # FnSig | ApiFn | "Some"
    methods: dict[ast.MethodCallExpr, tuple[str, str]] = field(default_factory=dict)
    generic_values: dict[ast.Expr, tuple[int, ...]] = field(default_factory=dict)
    fn_sigs: dict[str, FnSig] = field(default_factory=dict)
    statics: dict[str, StaticRes] = field(default_factory=dict)  # mangled name -> static
    struct_tys: dict[str, T.StructTy] = field(default_factory=dict)
    kernels_unchecked: set[str] = field(default_factory=set)  # #[kernel(unchecked_indexing)]
    atomic_orderings: dict[ast.MethodCallExpr, tuple[str, ...]] = field(default_factory=dict)
    printf_formats: dict[ast.MacroCallExpr, str] = field(default_factory=dict)  # C format
    contracts: dict[str, object] = field(default_factory=dict)  # kernel -> LaunchContract

    def ty(self, e: ast.Expr) -> T.Ty:
        return self.expr_ty[e]


# ---------------------------------------------------------------------------
# Helpers

def describe(ty: T.Ty) -> str:
    """How rustc names a type in a message: literals' variables are 'integer' / 'float'."""
    if isinstance(ty, T.InferTy):
        return {"int": "integer", "float": "floating-point number"}.get(ty.kind, "`_`")
    return f"`{ty}`"


def nearest(name: str, candidates) -> str | None:
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def _closest_last_segment(name: str, paths) -> list[str]:
    """API paths whose last segment is close to `name`, closest first (ties in path order)."""
    scored = []
    for p in paths:
        ratio = difflib.SequenceMatcher(None, name, p.split("::")[-1]).ratio()
        if ratio >= 0.6:
            scored.append((-ratio, p))
    return [p for _, p in sorted(scored)]


SCALAR_ASSOC_CONSTS = {
    "MAX": lambda ty: (2 ** (ty.bits - 1) - 1 if ty.signed else 2 ** ty.bits - 1)
    if isinstance(ty, T.IntTy) else float(T.float_max(ty)),
    "MIN": lambda ty: (-(2 ** (ty.bits - 1)) if ty.signed else 0)
    if isinstance(ty, T.IntTy) else -float(T.float_max(ty)),
    "INFINITY": lambda ty: float("inf"),
    "NEG_INFINITY": lambda ty: float("-inf"),
    "NAN": lambda ty: float("nan"),
    "EPSILON": lambda ty: 2.0 ** -23 if ty == T.F32 else 2.0 ** -52,
    "BITS": lambda ty: ty.bits,
}
FLOAT_CONSTS = {"PI": 3.141592653589793, "E": 2.718281828459045, "TAU": 6.283185307179586,
                "LN_2": 0.6931471805599453, "SQRT_2": 1.4142135623730951,
                "FRAC_1_SQRT_2": 0.7071067811865476, "LN_10": 2.302585092994046,
                "LOG2_E": 1.4426950408889634}


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


class Typeck:
    def __init__(self, items: ItemTable, sink: DiagnosticSink):
        self.items = items
        self.sink = sink
        self.r = TypeckResults()
        self.subst: dict[int, T.Ty] = {}
        self.nvars = 0
        self.consts = ConstEvaluator(items, sink, self.lower_type)
        self.ctx: FnCtx | None = None
        self.negated: set[ast.LitExpr] = set()

    # -- inference variables ------------------------------------------------
    def fresh(self, kind: str) -> T.InferTy:
        self.nvars += 1
        return T.InferTy(self.nvars, kind)

    def shallow(self, ty: T.Ty) -> T.Ty:
        while isinstance(ty, T.InferTy) and ty.var in self.subst:
            ty = self.subst[ty.var]
        return ty

    def deep(self, ty: T.Ty) -> T.Ty:
        ty = self.shallow(ty)
        if isinstance(ty, T.AtomicTy):  # a PtrTy, but its element is always concrete
            return ty
        if isinstance(ty, T.RefTy):
            return T.RefTy(self.deep(ty.inner), ty.mutable)
        if isinstance(ty, T.PtrTy):
            return T.PtrTy(self.deep(ty.inner), ty.mutable)
        if isinstance(ty, T.ArrayTy):
            return T.ArrayTy(self.deep(ty.elem), ty.length)
        if isinstance(ty, T.TupleTy):
            return T.TupleTy(tuple(self.deep(t) for t in ty.elems))
        if isinstance(ty, T.OptionTy):
            return T.OptionTy(self.deep(ty.inner))
        if isinstance(ty, T.RangeTy):
            return T.RangeTy(self.deep(ty.elem))
        return ty

    def finalize(self, ty: T.Ty) -> T.Ty:
        """The type after inference, with Rust's literal defaults applied."""
        ty = self.deep(ty)
        if isinstance(ty, T.InferTy):
            if ty.kind == "int":
                self.subst[ty.var] = T.I32
            elif ty.kind == "float":
                self.subst[ty.var] = T.F64
            else:
                return T.ERROR
            return self.subst[ty.var]
        if isinstance(ty, (T.RefTy, T.PtrTy, T.ArrayTy, T.TupleTy, T.OptionTy, T.RangeTy)):
            return self._map_children(ty, self.finalize)
        return ty

    @staticmethod
    def _map_children(ty, f):
        if isinstance(ty, T.AtomicTy):
            return ty
        if isinstance(ty, T.RefTy):
            return T.RefTy(f(ty.inner), ty.mutable)
        if isinstance(ty, T.PtrTy):
            return T.PtrTy(f(ty.inner), ty.mutable)
        if isinstance(ty, T.ArrayTy):
            return T.ArrayTy(f(ty.elem), ty.length)
        if isinstance(ty, T.TupleTy):
            return T.TupleTy(tuple(f(t) for t in ty.elems))
        if isinstance(ty, T.OptionTy):
            return T.OptionTy(f(ty.inner))
        return T.RangeTy(f(ty.elem))

    def unify(self, a: T.Ty, b: T.Ty) -> bool:
        a, b = self.shallow(a), self.shallow(b)
        if a == b:
            return True
        if isinstance(a, T.ErrorTy) or isinstance(b, T.ErrorTy):
            # An erroneous value satisfies any variable, so no follow-up "type annotations
            # needed" is reported for it.
            for v in (a, b):
                if isinstance(v, T.InferTy):
                    self.subst[v.var] = T.ERROR
            return True
        if isinstance(a, T.InferTy) or isinstance(b, T.InferTy):
            if not isinstance(a, T.InferTy):
                a, b = b, a
            return self._bind(a, b)
        if type(a) is not type(b):
            return False
        if isinstance(a, T.AtomicTy):
            return a == b  # scalar elements: equal or not
        if isinstance(a, (T.RefTy, T.PtrTy)):
            return a.mutable == b.mutable and self.unify(a.inner, b.inner)
        if isinstance(a, T.ArrayTy):
            return a.length == b.length and self.unify(a.elem, b.elem)
        if isinstance(a, T.SliceTy):
            return self.unify(a.elem, b.elem)
        if isinstance(a, T.TupleTy):
            return len(a.elems) == len(b.elems) and all(
                self.unify(x, y) for x, y in zip(a.elems, b.elems))
        if isinstance(a, T.OptionTy):
            return self.unify(a.inner, b.inner)
        if isinstance(a, T.RangeTy):
            return self.unify(a.elem, b.elem)
        return False

    def _bind(self, var: T.InferTy, ty: T.Ty) -> bool:
        if isinstance(ty, T.InferTy):
            if var.kind == "any" or var.kind == ty.kind:
                self.subst[var.var] = ty
                return True
            if ty.kind == "any":
                self.subst[ty.var] = var
                return True
            return False
        if var.kind == "int" and not isinstance(ty, T.IntTy):
            return False
        if var.kind == "float" and not isinstance(ty, T.FloatTy):
            return False
        self.subst[var.var] = ty
        return True

    def coerce(self, actual: T.Ty, expected: T.Ty, span: Span, *, why: Label | None = None) -> T.Ty:
        """Check that a value of type `actual` may be used where `expected` is wanted."""
        a, e = self.shallow(actual), self.shallow(expected)
        if isinstance(a, T.NeverTy):
            return expected
        # `&mut T` coerces to `&T`, as in Rust.
        if isinstance(a, T.RefTy) and isinstance(e, T.RefTy) and a.mutable and not e.mutable:
            if self.unify(a.inner, e.inner):
                return expected
        if not self.unify(actual, expected):
            self.mismatch(expected, actual, span, why=why)
            return T.ERROR
        return expected

    def mismatch(self, expected: T.Ty, actual: T.Ty, span: Span, *, why: Label | None = None):
        exp, act = self.deep(expected), self.deep(actual)
        self.sink.error("E0308", "mismatched types", span,
                        f"expected {describe(exp)}, found {describe(act)}",
                        labels=[why] if why else None)

    # -- types written by the user -----------------------------------------
    def lower_type(self, te: ast.TypeExpr) -> T.Ty:
        if isinstance(te, ast.RefType):
            return T.RefTy(self.lower_type(te.inner), te.mutable)
        if isinstance(te, ast.PtrType):
            return T.PtrTy(self.lower_type(te.inner), te.mutable)
        if isinstance(te, ast.SliceType):
            return T.SliceTy(self.lower_type(te.elem))
        if isinstance(te, ast.ArrayType):
            n = self.consts.eval_usize(te.length)
            return T.ArrayTy(self.lower_type(te.elem), n if n is not None else 0)
        if isinstance(te, ast.TupleType):
            return T.UNIT if not te.elems else T.TupleTy(tuple(self.lower_type(t) for t in te.elems))
        if isinstance(te, ast.NeverType):
            return T.NEVER
        if isinstance(te, ast.InferType):
            return self.fresh("any")
        assert isinstance(te, ast.PathType)
        return self.lower_path_type(te)

    def lower_path_type(self, te: ast.PathType) -> T.Ty:
        names = te.path.names
        while len(names) > 1 and names[0] in ("cuda_device", "core", "std", "crate", "super"):
            names = names[1:]
        seg = te.path.segments[len(te.path.segments) - len(names):]
        name = names[-1]
        gargs = seg[-1].generic_args
        if len(names) == 1 and name in T.SCALARS and not gargs:
            return T.SCALARS[name]
        if name == "DisjointSlice" and 1 <= len(gargs) <= 2:
            elem = self._type_arg(gargs[0])
            index = "1d"
            if len(gargs) == 2:
                index = self._index_kind(gargs[1])
            return T.DisjointSliceTy(elem, index)
        if name == "SharedArray" and len(gargs) == 2:
            n = self.consts.eval_usize(self._const_arg(gargs[1]))
            return T.SharedArrayTy(self._type_arg(gargs[0]), n if n is not None else 0)
        if name == "Option" and len(gargs) == 1:
            return T.OptionTy(self._type_arg(gargs[0]))
        if name == "ThreadIndex" and not gargs:
            return T.THREAD_INDEX
        atomic = T.atomic_type_name(name)
        if atomic is not None and not gargs:
            return atomic
        if len(names) == 1 and name in self.items.structs:
            return self.struct_ty(name)
        known = list(T.SCALARS) + list(self.items.structs) + [
            "DisjointSlice", "SharedArray", "Option", "ThreadIndex"]
        hint = nearest(name, known)
        if name in ("DisjointSlice", "SharedArray", "Option"):
            self.sink.error("E0107", f"wrong number of generic arguments for `{name}`", te.span,
                            "wrong number of generic arguments")
        else:
            self.sink.error("E0412", f"cannot find type `{name}` in this scope", te.span,
                            "not found in this scope",
                            help=f"a type with a similar name exists: `{hint}`" if hint else None)
        return T.ERROR

    def _type_arg(self, arg) -> T.Ty:
        if isinstance(arg, ast.TypeExpr):
            return self.lower_type(arg)
        self.sink.error("E0308", "expected a type, found a constant", arg.span, "expected a type")
        return T.ERROR

    @staticmethod
    def _const_arg(arg) -> ast.Expr:
        # `SharedArray<f32, N>` parses N as a type path; it names a const.
        if isinstance(arg, ast.PathType):
            return ast.PathExpr(path=arg.path, span=arg.span)
        return arg

    def _index_kind(self, arg) -> str:
        if isinstance(arg, ast.PathType):
            last = arg.path.last
            if last.name == "Index2D" and len(last.generic_args) == 1:
                n = self.consts.eval_usize(self._const_arg(last.generic_args[0]))
                return f"2d:{n}"
            if last.name == "Runtime2DIndex":
                return "runtime2d"
            if last.name == "Index1D":
                return "1d"
        self.sink.error("E0412", "expected an index kind (`thread::Index2D<S>` or "
                        "`thread::Runtime2DIndex`)", arg.span, "not an index kind")
        return "1d"

    def struct_ty(self, name: str) -> T.Ty:
        if name in self.r.struct_tys:
            return self.r.struct_tys[name]
        item = self.items.structs[name]
        fields = tuple((f.name, self.lower_type(f.ty)) for f in item.fields)
        derive = attr(item, "derive")
        derived = {a.path.last.name for a in (derive.args or ()) if isinstance(a, ast.PathExpr)} \
            if derive else set()
        ty = T.StructTy(name, fields, is_copy="Copy" in derived)
        self.r.struct_tys[name] = ty
        return ty

    # -- items -------------------------------------------------------------
    def run(self) -> TypeckResults:
        for item in self.items.statics.values():
            self.check_module_static(item)
        for fn in self.items.fns.values():
            self.r.fn_sigs[fn.name] = self.signature(fn)
        for sig in self.r.fn_sigs.values():
            self.check_fn(sig)
        for name in self.items.structs:
            self.struct_ty(name)
        return self.r

    def signature(self, fn: ast.FnItem) -> FnSig:
        kind = self.items.fn_kind(fn)
        params = tuple(self.lower_type(p.ty) for p in fn.params)
        ret = self.lower_type(fn.ret) if fn.ret else T.UNIT
        sig = FnSig(fn.name, kind, params, ret, fn.is_unsafe, fn)
        if kind == "kernel":
            self.check_kernel_signature(sig)
            kattr = attr(fn, "kernel")
            if kattr and kattr.args and any(isinstance(a, ast.PathExpr) and
                                            a.path.names == ("unchecked_indexing",)
                                            for a in kattr.args):
                self.r.kernels_unchecked.add(fn.name)
            contract = attr(fn, "launch_contract")
            if contract is not None:
                from .contracts import parse_contract
                parsed = parse_contract(fn, contract, self.consts, self.sink)
                if parsed is not None:
                    self.r.contracts[fn.name] = parsed
        return sig

    def check_module_static(self, item: ast.StaticItem) -> None:
        """Shared memory belongs to a block running a kernel: it is declared in the kernel
        (or a `#[device]` function it calls), never at module level."""
        te = item.ty
        if isinstance(te, ast.PathType) and te.path.names[-1] == "SharedArray":
            self.sink.error("OX0011", "a `SharedArray` must be declared inside a kernel",
                            item.name_span, "declared outside of any function",
                            notes=["each block of a launch gets its own copy of a shared array, "
                                   "so it lives in the kernel that uses it"],
                            help=f"move `static mut {item.name}` into the body of the "
                                 "`#[kernel]` (or `#[device]` function) that uses it")
        else:
            self.unsupported(te.span, "non-`SharedArray` statics",
                             help="use a `const` for a constant value")

    def check_kernel_signature(self, sig: FnSig) -> None:
        fn = sig.item
        if fn.ret is not None and sig.ret != T.UNIT:
            self.sink.error("OX0004", "a kernel cannot return a value", fn.ret.span,
                            f"kernel `{fn.name}` returns `{sig.ret}`",
                            help="write results through a `DisjointSlice<T>` parameter")
        for p, ty in zip(fn.params, sig.params):
            if isinstance(ty, T.RefTy) and isinstance(ty.inner, T.SliceTy) and ty.mutable \
                    and not fn.is_unsafe:
                self.sink.error(
                    "OX0004", "`&mut [T]` kernel parameters are not allowed in a safe kernel",
                    p.ty.span, "every thread would get a mutable view of the whole slice",
                    notes=["two threads writing the same element through it is a data race "
                           "the compiler cannot rule out"],
                    help=f"use `DisjointSlice<{ty.inner.elem}>`, which hands each thread only "
                         "its own element, or mark the kernel `unsafe fn`")
            elif not self._kernel_param_ok(ty):
                self.sink.error("OX0004", f"type `{ty}` cannot be a kernel parameter", p.ty.span,
                                "not a kernel parameter type",
                                help="kernel parameters are scalars, `&[T]`, `DisjointSlice<T>` "
                                     "or raw pointers")

    @staticmethod
    def _kernel_param_ok(ty: T.Ty) -> bool:
        if T.is_scalar(ty) or isinstance(ty, (T.DisjointSliceTy, T.PtrTy, T.ErrorTy)):
            return True
        if isinstance(ty, T.RefTy):
            return isinstance(ty.inner, T.SliceTy) or T.is_scalar(ty.inner)
        if isinstance(ty, T.StructTy):
            return ty.is_copy
        return False

    def check_fn(self, sig: FnSig) -> None:
        fn = sig.item
        self.ctx = ctx = FnCtx(sig, scopes=[{}])
        for p, ty in zip(fn.params, sig.params):
            if isinstance(p.pat, ast.IdentPat):
                var = Var(p.pat.name, ty, p.pat.mutable, p.pat.span)
                self.r.param_var[p] = var
                self.r.pat_var[p.pat] = var
                ctx.scopes[-1][p.pat.name] = var
            elif not isinstance(p.pat, ast.WildPat):
                self.unsupported(p.pat.span, "patterns in parameters")
        body_ty = self.check_block(fn.body, sig.ret)
        tail_span = fn.body.tail.span if fn.body.tail else fn.body.span
        if fn.body.tail is not None or not isinstance(self.shallow(body_ty), T.NeverTy):
            if fn.body.tail is None and sig.ret != T.UNIT and not isinstance(
                    self.shallow(body_ty), T.NeverTy):
                self.sink.error("E0308", "mismatched types", fn.ret.span if fn.ret else fn.span,
                                f"expected `{sig.ret}`, found `()`",
                                notes=["the function body ends without a value"],
                                help="return a value: end the body with an expression "
                                     "without `;`")
            elif fn.body.tail is not None:
                self.coerce(body_ty, sig.ret, tail_span)
        self.finish_fn(ctx)
        self.ctx = None

    def finish_fn(self, ctx: FnCtx) -> None:
        for var, span in ctx.lets:
            t = self.deep(var.ty)
            if isinstance(t, T.InferTy) and t.kind == "any":
                self.sink.error("E0282", "type annotations needed", span,
                                f"cannot infer the type of `{var.name}`",
                                help=f"give `{var.name}` a type: `let {var.name}: T = ...`")
        for e, t in list(self.r.expr_ty.items()):
            self.r.expr_ty[e] = self.finalize(t)
        for var in list(self.r.pat_var.values()):
            var.ty = self.finalize(var.ty)
        for lit, negated in ctx.lits:
            self.check_literal_range(lit, self.r.expr_ty[lit], negated)

    def check_literal_range(self, lit: ast.LitExpr, ty: T.Ty, negated: bool) -> None:
        if not isinstance(ty, T.IntTy) or lit.kind != "int":
            return
        lo = -(2 ** (ty.bits - 1)) if ty.signed else 0
        hi = 2 ** (ty.bits - 1) - 1 if ty.signed else 2 ** ty.bits - 1
        value = -lit.value if negated else lit.value
        if not lo <= value <= hi:
            self.sink.error("OX0007", f"literal out of range for `{ty}`", lit.span,
                            f"does not fit in `{ty}`",
                            notes=[f"the literal `{lit.span.text()}` does not fit into the type "
                                   f"`{ty}` whose range is `{lo}..={hi}`"])

    def unsupported(self, span: Span, what: str, help: str | None = None) -> None:
        self.sink.error("OX0002", f"{what} {'are' if what.endswith('s') else 'is'} not supported "
                        "by oxidec yet", span, "not supported", help=help)

    # -- scopes ------------------------------------------------------------
    def lookup(self, name: str):
        for scope in reversed(self.ctx.scopes):
            if name in scope:
                return scope[name]
        return None

    def visible_names(self) -> list[str]:
        names = [n for s in self.ctx.scopes for n in s]
        return names + list(self.items.consts) + list(self.items.statics) + list(self.items.fns)

    # -- blocks and statements --------------------------------------------
    def check_block(self, block: ast.Block, expected: T.Ty | None) -> T.Ty:
        self.ctx.scopes.append({})
        diverges = False
        for stmt in block.stmts:
            if isinstance(stmt, ast.ItemStmt):
                self.check_item_stmt(stmt.item)
        for stmt in block.stmts:
            if self.check_stmt(stmt):
                diverges = True
        if block.tail is not None:
            ty = self.check_expr(block.tail, expected)
        else:
            ty = T.NEVER if diverges else T.UNIT
        self.ctx.scopes.pop()
        return ty

    def check_item_stmt(self, item: ast.Item) -> None:
        scope = self.ctx.scopes[-1]
        if isinstance(item, ast.ConstItem):
            value = self.consts.eval_item(item)
            if value is not None:
                scope[item.name] = ConstRes(value)
        elif isinstance(item, ast.StaticItem):
            self.declare_static(item, scope)
        elif isinstance(item, (ast.FnItem, ast.HostFn)):
            self.sink.error("OX0002", "functions nested inside functions are not supported",
                            item.name_span, "move this function to module level")
        elif not isinstance(item, ast.UseItem):
            self.unsupported(item.span, "items of this kind inside functions")

    def declare_static(self, item: ast.StaticItem, scope: dict) -> None:
        ty = self.lower_type(item.ty)
        mangled = f"{self.ctx.sig.name}${item.name}" if self.ctx else item.name
        if not isinstance(ty, T.SharedArrayTy):
            if isinstance(ty, T.ErrorTy):
                return
            self.unsupported(item.ty.span, "non-`SharedArray` statics",
                             help="use a `const` for a constant value")
            return
        if not item.mutable:
            self.sink.error("OX0002", "a `SharedArray` static must be `static mut`", item.name_span,
                            "declared without `mut`", help=f"write `static mut {item.name}`")
        init = item.value
        if not (isinstance(init, ast.PathExpr) and init.path.names[-2:] == ("SharedArray", "UNINIT")):
            self.sink.error("E0308", "a `SharedArray` must be initialised with "
                            "`SharedArray::UNINIT`", init.span, "expected `SharedArray::UNINIT`")
        res = StaticRes(mangled, ty, item.mutable, item.name_span)
        self.r.statics[mangled] = res
        scope[item.name] = res

    def check_stmt(self, stmt: ast.Stmt) -> bool:
        """Check one statement; True when it always diverges (its type is `!`)."""
        if isinstance(stmt, ast.LetStmt):
            return self.check_let_stmt(stmt)
        if isinstance(stmt, ast.ExprStmt):
            ty = self.check_expr(stmt.expr, None if stmt.semi else T.UNIT)
            ty = self.shallow(ty)
            if not stmt.semi and not isinstance(ty, (T.NeverTy, T.UnitTy, T.ErrorTy)):
                self.coerce(ty, T.UNIT, stmt.expr.span)
            return isinstance(ty, T.NeverTy)
        return False

    def check_let_stmt(self, stmt: ast.LetStmt) -> bool:
        declared = self.lower_type(stmt.ty) if stmt.ty else None
        ty = declared or self.fresh("any")
        diverges = False
        if stmt.init is not None:
            why = Label(stmt.ty.span, "expected due to this") if stmt.ty else None
            init_ty = self.check_expr(stmt.init, ty)
            diverges = isinstance(self.shallow(init_ty), T.NeverTy)
            self.coerce(init_ty, ty, stmt.init.span, why=why)
        self.bind_pattern(stmt.pat, ty, irrefutable=True, let_span=stmt.span)
        return diverges

    # -- patterns ----------------------------------------------------------
    def bind_pattern(self, pat: ast.Pattern, ty: T.Ty, *, irrefutable: bool,
                     let_span: Span | None = None) -> None:
        scope = self.ctx.scopes[-1]
        if isinstance(pat, ast.IdentPat):
            if pat.by_ref:
                self.unsupported(pat.span, "`ref` bindings")
            var = Var(pat.name, ty, pat.mutable, pat.span)
            self.r.pat_var[pat] = var
            scope[pat.name] = var
            if let_span is not None:
                self.ctx.lets.append((var, pat.span))
        elif isinstance(pat, ast.WildPat):
            pass
        elif isinstance(pat, ast.TuplePat):
            t = self.shallow(ty)
            if isinstance(t, T.InferTy):
                t = T.TupleTy(tuple(self.fresh("any") for _ in pat.elems))
                self.unify(ty, t)
            if not isinstance(t, T.TupleTy) or len(t.elems) != len(pat.elems):
                if not isinstance(t, T.ErrorTy):
                    self.sink.error("E0308", "mismatched types", pat.span,
                                    f"expected {describe(self.deep(ty))}, found a tuple pattern "
                                    f"of {len(pat.elems)} elements")
                for p in pat.elems:
                    self.bind_pattern(p, T.ERROR, irrefutable=irrefutable)
                return
            for p, et in zip(pat.elems, t.elems):
                self.bind_pattern(p, et, irrefutable=irrefutable, let_span=let_span)
        elif isinstance(pat, ast.TupleStructPat) and pat.path.names[-1] == "Some" \
                and len(pat.elems) == 1:
            inner = self.fresh("any")
            if not self.unify(ty, T.OptionTy(inner)):
                self.sink.error("E0308", "mismatched types", pat.span,
                                f"expected {describe(self.deep(ty))}, found `Option<_>`")
                inner = T.ERROR
            if irrefutable:
                self.sink.error("E0005", "refutable pattern in local binding", pat.span,
                                "pattern `None` not covered",
                                help="use `if let Some(..) = ... { }` or `let ... else`")
            self.bind_pattern(pat.elems[0], inner, irrefutable=irrefutable)
        else:
            self.unsupported(pat.span, "patterns of this kind")

    # -- expressions -------------------------------------------------------
    def check_expr(self, e: ast.Expr, expected: T.Ty | None = None) -> T.Ty:
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            self.unsupported(e.span, f"`{_expr_kind(e)}` expressions")
            ty = T.ERROR
        else:
            ty = method(e, expected)
        self.r.expr_ty[e] = ty
        return ty

    def expr_LitExpr(self, e: ast.LitExpr, expected):
        if e.kind == "bool":
            return T.BOOL
        if e.kind in ("str", "char"):
            self.unsupported(e.span, f"{e.kind} literals outside `gpu_printf!`")
            return T.ERROR
        if e.suffix:
            ty = T.SCALARS.get(e.suffix)
            if ty is None or ty == T.BOOL or (e.kind == "float" and not T.is_float(ty)):
                self.sink.error("OX0001", f"invalid suffix `{e.suffix}` for {e.kind} literal",
                                e.span, "invalid suffix",
                                help="valid suffixes are `i8`..`i64`, `isize`, `u8`..`u64`, "
                                     "`usize`, `f32`, `f64`")
                return T.ERROR
            if e.kind == "int" and T.is_integer(ty):
                self.ctx.lits.append((e, e in self.negated))
            return ty
        if e.kind == "int":
            self.ctx.lits.append((e, e in self.negated))
            var = self.fresh("int")
        else:
            var = self.fresh("float")
        if expected is not None:
            self.unify(var, expected)  # mismatches are reported by the caller's coerce
        return var

    def expr_PathExpr(self, e: ast.PathExpr, expected):
        names = e.path.names
        if len(names) == 1:
            found = self.lookup(names[0])
            if isinstance(found, Var):
                self.r.res[e] = LocalRes(found)
                return found.ty
            if found is not None:
                return self._item_res(e, found)
            name = names[0]
            if name in self.items.consts:
                value = self.consts.eval_item(self.items.consts[name])
                if value is None:
                    return T.ERROR
                return self._item_res(e, ConstRes(value))
            if name in self.items.statics:
                return T.ERROR  # check_module_static reported the item itself
            if name == "None":
                self.r.res[e] = "None"
                return T.OptionTy(self.fresh("any"))
            if name in self.items.fns or name in self.items.host_fns:
                self.unsupported(e.span, "functions used as values")
                return T.ERROR
            hint = nearest(name, self.visible_names())
            self.sink.error("E0425", f"cannot find value `{name}` in this scope", e.span,
                            "not found in this scope",
                            help=f"a local variable with a similar name exists: `{hint}`"
                            if hint else None)
            return T.ERROR
        value = self.consts.eval_assoc(e)
        if value is not None:
            return self._item_res(e, ConstRes(value))
        if names[-2:] == ("SharedArray", "UNINIT"):
            self.sink.error("OX0002", "`SharedArray::UNINIT` may only initialise a "
                            "`static mut` shared array", e.span, "used as a value")
            return T.ERROR
        self.sink.error("E0425", f"cannot find value `{'::'.join(names)}` in this scope", e.span,
                        "not found in this scope")
        return T.ERROR

    def _item_res(self, e: ast.PathExpr, res) -> T.Ty:
        self.r.res[e] = res
        if isinstance(res, ConstRes):
            return res.value.ty
        if isinstance(res, StaticRes):
            return res.ty
        return T.ERROR

    def expr_TupleExpr(self, e: ast.TupleExpr, expected):
        if not e.elems:
            return T.UNIT
        exp = self.shallow(expected) if expected is not None else None
        elems = []
        for i, x in enumerate(e.elems):
            hint = exp.elems[i] if isinstance(exp, T.TupleTy) and i < len(exp.elems) else None
            elems.append(self.check_expr(x, hint))
        return T.TupleTy(tuple(elems))

    def expr_ArrayExpr(self, e: ast.ArrayExpr, expected):
        exp = self.shallow(expected) if expected is not None else None
        elem = exp.elem if isinstance(exp, T.ArrayTy) else self.fresh("any")
        for x in e.elems:
            self.coerce(self.check_expr(x, elem), elem, x.span)
        return T.ArrayTy(elem, len(e.elems))

    def expr_ArrayRepeatExpr(self, e: ast.ArrayRepeatExpr, expected):
        exp = self.shallow(expected) if expected is not None else None
        elem = exp.elem if isinstance(exp, T.ArrayTy) else self.fresh("any")
        self.coerce(self.check_expr(e.value, elem), elem, e.value.span)
        n = self.consts.eval_usize(e.count)
        self.r.expr_ty[e.count] = T.USIZE
        return T.ArrayTy(elem, n if n is not None else 0)

    def expr_StructExpr(self, e: ast.StructExpr, expected):
        name = e.path.names[-1]
        if name not in self.items.structs:
            self.sink.error("E0422", f"cannot find struct `{name}` in this scope", e.path.span,
                            "not found in this scope")
            for _, x in e.fields:
                self.check_expr(x)
            return T.ERROR
        ty = self.struct_ty(name)
        seen = set()
        for fname, x in e.fields:
            idx = ty.field_index(fname)
            if idx is None:
                self.sink.error("E0560", f"struct `{name}` has no field named `{fname}`", x.span,
                                "unknown field")
                self.check_expr(x)
                continue
            seen.add(fname)
            fty = ty.fields[idx][1]
            self.coerce(self.check_expr(x, fty), fty, x.span)
        missing = [f for f, _ in ty.fields if f not in seen]
        if missing:
            self.sink.error("E0063", f"missing field{'s' if len(missing) > 1 else ''} "
                            + ", ".join(f"`{m}`" for m in missing)
                            + f" in initializer of `{name}`", e.path.span,
                            "missing " + ", ".join(f"`{m}`" for m in missing))
        return ty

    def expr_BlockExpr(self, e: ast.BlockExpr, expected):
        if e.label:
            self.ctx.loops.append(Loop(e.label, True))
            ty = self.check_block(e.block, expected)
            loop = self.ctx.loops.pop()
            if loop.break_ty is not None:
                self.unify(loop.break_ty, ty)
            return ty
        return self.check_block(e.block, expected)

    def expr_UnaryExpr(self, e: ast.UnaryExpr, expected):
        if e.op == "-" and isinstance(e.operand, ast.LitExpr):
            self.negated.add(e.operand)
        if e.op == "*":
            ty = self.shallow(self.check_expr(e.operand))
            if isinstance(ty, T.AtomicTy):
                self.sink.error("E0614", f"type `{ty}` cannot be dereferenced", e.span,
                                "cannot be dereferenced",
                                help="an atomic view is read with `.load(AtomicOrdering::"
                                     "Relaxed)` and written with `.store(v, ..)`")
                return T.ERROR
            if isinstance(ty, (T.RefTy, T.PtrTy)):
                return ty.inner
            if not isinstance(ty, T.ErrorTy):
                self.sink.error("E0614", f"type `{self.deep(ty)}` cannot be dereferenced",
                                e.span, "cannot be dereferenced")
            return T.ERROR
        ty = self.check_expr(e.operand, expected)
        t = self.shallow(ty)
        if e.op == "-":
            ok = isinstance(t, T.FloatTy) or (isinstance(t, T.IntTy) and t.signed) or (
                isinstance(t, T.InferTy) and t.kind in ("int", "float"))
        else:
            ok = isinstance(t, (T.IntTy, T.BoolTy)) or (isinstance(t, T.InferTy) and t.kind == "int")
        if not ok and not isinstance(t, T.ErrorTy):
            self.sink.error("E0600", f"cannot apply unary operator `{e.op}` to type "
                            f"`{self.deep(t)}`", e.span, f"cannot apply unary operator `{e.op}`",
                            notes=["unsigned values cannot be negated"]
                            if isinstance(t, T.IntTy) and e.op == "-" else None)
            return T.ERROR
        return ty

    def expr_RefExpr(self, e: ast.RefExpr, expected):
        exp = self.shallow(expected) if expected is not None else None
        inner = self.check_expr(e.operand, exp.inner if isinstance(exp, T.RefTy) else None)
        return T.RefTy(inner, e.mutable)

    ARITH = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "calculate the "
             "remainder of"}

    def expr_BinaryExpr(self, e: ast.BinaryExpr, expected):
        op = e.op
        if op in ("&&", "||"):
            for side in (e.lhs, e.rhs):
                self.coerce(self.check_expr(side, T.BOOL), T.BOOL, side.span)
            return T.BOOL
        if op in ("<<", ">>"):
            lt = self.check_expr(e.lhs, expected)
            rt = self.check_expr(e.rhs)
            for side, t in ((e.lhs, lt), (e.rhs, rt)):
                s = self.shallow(t)
                if not (isinstance(s, (T.IntTy, T.ErrorTy)) or
                        (isinstance(s, T.InferTy) and s.kind == "int")):
                    self.op_error(e, lt, rt)
                    return T.ERROR
            return lt
        comparison = op in ("==", "!=", "<", "<=", ">", ">=")
        lt = self.check_expr(e.lhs, None if comparison else expected)
        rt = self.check_expr(e.rhs, lt)
        if not self.unify(lt, rt):
            self.mismatch(lt, rt, e.rhs.span)
            return T.BOOL if comparison else T.ERROR
        s = self.shallow(lt)
        if isinstance(s, T.ErrorTy):
            return T.BOOL if comparison else T.ERROR
        numeric = isinstance(s, (T.IntTy, T.FloatTy)) or (
            isinstance(s, T.InferTy) and s.kind in ("int", "float"))
        if comparison:
            ok = numeric or isinstance(s, T.BoolTy)
        elif op in ("&", "|", "^"):
            ok = isinstance(s, (T.IntTy, T.BoolTy)) or (isinstance(s, T.InferTy) and s.kind == "int")
        else:
            ok = numeric
        if not ok:
            self.op_error(e, lt, rt)
            return T.BOOL if comparison else T.ERROR
        return T.BOOL if comparison else lt

    def op_error(self, e, lt, rt) -> None:
        op = e.op
        lt, rt = self.deep(lt), self.deep(rt)
        if op in self.ARITH:
            msg = f"cannot {self.ARITH[op]} `{rt}` to `{lt}`" if op == "+" else \
                f"cannot {self.ARITH[op]} `{lt}` by `{rt}`" if op in "*/%" else \
                f"cannot subtract `{rt}` from `{lt}`"
        else:
            msg = f"no implementation for `{lt} {op} {rt}`"
        self.sink.error("E0369", msg, e.op_span, f"`{op}` cannot be applied to `{lt}`",
                        labels=[Label(e.lhs.span, f"{describe(lt)}")])

    def expr_AssignExpr(self, e: ast.AssignExpr, expected):
        lt = self.check_place(e.lhs)
        self.coerce(self.check_expr(e.rhs, lt), lt, e.rhs.span)
        return T.UNIT

    def expr_CompoundAssignExpr(self, e: ast.CompoundAssignExpr, expected):
        lt = self.check_place(e.lhs)
        fake = ast.BinaryExpr(op=e.op, lhs=e.lhs, rhs=e.rhs, op_span=e.op_span, span=e.span)
        if e.op in ("<<", ">>"):
            rt = self.check_expr(e.rhs)
            s = self.shallow(rt)
            if not (isinstance(s, (T.IntTy, T.ErrorTy)) or (isinstance(s, T.InferTy) and
                                                            s.kind == "int")):
                self.op_error(fake, lt, rt)
            return T.UNIT
        rt = self.check_expr(e.rhs, lt)
        if not self.unify(lt, rt):
            self.mismatch(lt, rt, e.rhs.span)
            return T.UNIT
        s = self.shallow(lt)
        ok = isinstance(s, (T.IntTy, T.FloatTy, T.ErrorTy)) or isinstance(s, T.InferTy)
        if e.op in ("&", "|", "^"):
            ok = ok and not isinstance(s, T.FloatTy) or isinstance(s, T.BoolTy)
        if not ok:
            self.op_error(fake, lt, rt)
        return T.UNIT

    def check_place(self, e: ast.Expr) -> T.Ty:
        ty = self.check_expr(e)
        if not self.is_place(e):
            self.sink.error("E0070", "invalid left-hand side of assignment", e.span,
                            "cannot assign to this expression")
            return T.ERROR
        return ty

    def is_place(self, e: ast.Expr) -> bool:
        if isinstance(e, ast.PathExpr):
            return isinstance(self.r.res.get(e), (LocalRes, StaticRes))
        if isinstance(e, ast.FieldExpr):
            return self.is_place(e.base) or isinstance(self.shallow(self.r.expr_ty.get(e.base)),
                                                       T.RefTy)
        if isinstance(e, ast.IndexExpr):
            return True
        if isinstance(e, ast.UnaryExpr) and e.op == "*":
            return True
        return False

    def expr_CastExpr(self, e: ast.CastExpr, expected):
        target = self.lower_type(e.ty)
        src = self.shallow(self.check_expr(e.expr))
        if isinstance(src, T.InferTy) and src.kind == "any":
            self.sink.error("E0282", "type annotations needed", e.expr.span,
                            "cannot infer the type of this value")
            return target
        castable = (T.IntTy, T.FloatTy, T.BoolTy, T.ErrorTy, T.InferTy)
        ok = isinstance(src, castable) and isinstance(target, (T.IntTy, T.FloatTy, T.ErrorTy))
        if isinstance(src, T.BoolTy) and isinstance(target, T.FloatTy):
            ok = False
        if isinstance(src, T.PtrTy) and isinstance(target, (T.PtrTy, T.IntTy)):
            ok = True
        if isinstance(src, T.RefTy) and isinstance(target, T.PtrTy) and not isinstance(
                target, T.AtomicTy) and (src.mutable or not target.mutable) \
                and self.unify(src.inner, target.inner):
            ok = True  # `&mut x as *mut T`
        if isinstance(target, T.BoolTy) and isinstance(src, (T.IntTy, T.InferTy)):
            self.sink.error("E0054", f"cannot cast `{self.deep(src)}` as `bool`", e.span,
                            "invalid cast", help="compare with zero instead: `x != 0`")
            return T.BOOL
        if not ok:
            self.sink.error("E0606", f"casting `{self.deep(src)}` as `{target}` is invalid",
                            e.span, "invalid cast")
        return target

    def expr_RangeExpr(self, e: ast.RangeExpr, expected):
        if e.lo is None or e.hi is None:
            self.unsupported(e.span, "open ranges")
            return T.ERROR
        exp = self.shallow(expected) if expected is not None else None
        lt = self.check_expr(e.lo, exp.elem if isinstance(exp, T.RangeTy) else None)
        rt = self.check_expr(e.hi, lt)
        if not self.unify(lt, rt):
            self.mismatch(lt, rt, e.hi.span)
        s = self.shallow(lt)
        if not (isinstance(s, (T.IntTy, T.ErrorTy)) or isinstance(s, T.InferTy)):
            self.sink.error("E0277", f"the range bounds must be integers, found `{self.deep(s)}`",
                            e.span, "not an integer range")
        elif isinstance(s, T.InferTy) and s.kind == "any":
            self.unify(s, self.fresh("int"))
        return T.RangeTy(lt)

    def expr_IndexExpr(self, e: ast.IndexExpr, expected):
        base = self.shallow(self.check_expr(e.base))
        self.coerce(self.check_expr(e.index, T.USIZE), T.USIZE, e.index.span)
        if isinstance(base, T.RefTy):
            base = self.shallow(base.inner)
        if isinstance(base, (T.SliceTy, T.ArrayTy, T.SharedArrayTy)):
            return base.elem
        if isinstance(base, T.ErrorTy):
            return T.ERROR
        help = None
        if isinstance(base, T.DisjointSliceTy):
            help = "a `DisjointSlice` is written through `get_mut(thread_index)`, which gives " \
                   "each thread only its own element"
        self.sink.error("E0608", f"cannot index into a value of type `{self.deep(base)}`",
                        e.span, "cannot be indexed", help=help)
        return T.ERROR

    def expr_FieldExpr(self, e: ast.FieldExpr, expected):
        base = self.shallow(self.check_expr(e.base))
        while isinstance(base, T.RefTy):
            base = self.shallow(base.inner)
        if isinstance(base, T.StructTy):
            idx = base.field_index(e.name)
            if idx is not None:
                return base.fields[idx][1]
            names = [f for f, _ in base.fields]
            hint = nearest(e.name, names)
            self.sink.error("E0609", f"no field `{e.name}` on type `{base}`", e.name_span,
                            "unknown field",
                            help=f"a field with a similar name exists: `{hint}`" if hint else
                            "available fields are: " + ", ".join(f"`{n}`" for n in names))
            return T.ERROR
        if isinstance(base, T.TupleTy) and e.name.isdigit():
            i = int(e.name)
            if i < len(base.elems):
                return base.elems[i]
        if isinstance(base, T.ErrorTy):
            return T.ERROR
        code = "E0610" if T.is_scalar(base) else "E0609"
        msg = f"`{self.deep(base)}` is a primitive type and therefore doesn't have fields" \
            if code == "E0610" else f"no field `{e.name}` on type `{self.deep(base)}`"
        self.sink.error(code, msg, e.name_span, "unknown field")
        return T.ERROR

    # -- calls -------------------------------------------------------------
    def expr_CallExpr(self, e: ast.CallExpr, expected):
        if not isinstance(e.func, ast.PathExpr):
            self.check_expr(e.func)
            self.sink.error("E0618", "expected function, found expression", e.func.span,
                            "not a function")
            return T.ERROR
        names = e.func.path.names
        name = names[-1]
        if len(names) == 1:
            local = self.lookup(name)
            if isinstance(local, Var):
                self.sink.error("E0618", f"expected function, found `{local.ty}`", e.func.span,
                                f"`{name}` is a local variable, not a function",
                                labels=[Label(local.span, f"`{name}` has type `{local.ty}`")])
                return T.ERROR
        if len(names) == 1 and name == "Some":
            return self.call_some(e, expected)
        if len(names) == 1 and name in self.items.fns:
            return self.call_fn(e, self.r.fn_sigs[name])
        if len(names) == 1 and name in self.items.host_fns:
            return self.call_host_fn(e, self.items.host_fns[name])
        api = lookup_api(names)
        if api is not None:
            return self.call_api(e, api, expected)
        for a in e.args:
            self.check_expr(a)
        hint = nearest(name, list(self.items.fns) + [p.split("::")[-1] for p in api_names()])
        qual = "::".join(names)
        if len(names) > 1 and self.unsupported_shuffle(e, names):
            return T.ERROR
        if len(names) > 1:
            candidates = [p for p in api_names() if p.endswith("::" + name)] or \
                _closest_last_segment(name, api_names())
            self.sink.error("OX0006", f"unknown device API function `{qual}`", e.func.span,
                            "not found in the device API",
                            help=f"did you mean `{candidates[0]}`?" if candidates else None)
        else:
            self.sink.error("E0425", f"cannot find function `{name}` in this scope", e.func.span,
                            "not found in this scope",
                            help=f"a function with a similar name exists: `{hint}`"
                            if hint else None)
        return T.ERROR

    def unsupported_shuffle(self, e: ast.CallExpr, names: tuple[str, ...]) -> bool:
        """`warp::shuffle_xor_u8(..)`: a shuffle of a type there is none for."""
        mode, _, suffix = names[-1].rpartition("_")
        if mode not in SHUFFLES or suffix not in T.SCALARS or suffix in SHUFFLE_TYPES:
            return False
        kinds = ", ".join(f"`{k}`" for k in SHUFFLE_TYPES)
        wide = "u64" if suffix in ("i64", "isize", "usize") else "u32"
        self.sink.error("OX0011", f"warp shuffles do not move `{suffix}` values", e.func.span,
                        f"no shuffle for `{suffix}`",
                        notes=[f"`warp::{mode}_*` exists for {kinds}: a shuffle moves one "
                               "32-bit register (64-bit values as two)"],
                        help=f"shuffle `x as {wide}` with `warp::{mode}_{wide}` and convert the "
                             f"result back" + (" (`!= 0` for a bool)" if suffix == "bool" else
                                               f" with `as {suffix}`"))
        return True

    def check_args(self, e: ast.CallExpr, params: tuple[T.Ty, ...], what: str,
                   def_span: Span | None = None) -> None:
        if len(e.args) != len(params):
            s = "" if len(params) == 1 else "s"
            plural = "was" if len(e.args) == 1 else "were"
            self.sink.error("E0061", f"this {what} takes {len(params)} argument{s} but "
                            f"{len(e.args)} argument{'' if len(e.args) == 1 else 's'} {plural} "
                            "supplied", e.func.span,
                            f"expected {len(params)} argument{s}",
                            labels=[Label(def_span, "defined here")] if def_span else None)
            for a in e.args:
                self.check_expr(a)
            return
        for a, p in zip(e.args, params):
            self.coerce(self.check_expr(a, p), p, a.span)

    def call_fn(self, e: ast.CallExpr, sig: FnSig) -> T.Ty:
        if sig.kind == "kernel":
            self.sink.error("OX0005", f"kernel `{sig.name}` cannot be called from device code",
                            e.func.span, "a kernel is launched by the host",
                            labels=[Label(sig.item.name_span, "kernel defined here")],
                            help=f"move the shared code into a `#[device]` function and call "
                                 "that from both")
        self.r.calls[e] = sig
        self.check_args(e, sig.params, "function", sig.item.name_span)
        return sig.ret

    def call_host_fn(self, e: ast.CallExpr, host: ast.HostFn) -> T.Ty:
        self.sink.error("OX0005", f"function `{host.name}` is not a `#[device]` function",
                        e.func.span, "called from device code",
                        labels=[Label(host.name_span, "defined here without `#[device]`")],
                        help=f"add `#[device]` above `fn {host.name}` to compile it for the GPU")
        for a in e.args:
            self.check_expr(a)
        return T.ERROR

    def call_some(self, e: ast.CallExpr, expected) -> T.Ty:
        if len(e.args) != 1:
            self.check_args(e, (T.ERROR,), "enum variant")
            return T.ERROR
        exp = self.shallow(expected) if expected is not None else None
        inner = self.check_expr(e.args[0], exp.inner if isinstance(exp, T.OptionTy) else None)
        self.r.calls[e] = "Some"
        return T.OptionTy(inner)

    def call_api(self, e: ast.CallExpr, api: ApiFn, expected=None) -> T.Ty:
        self.r.calls[e] = api
        if api.path == "DynamicSharedArray::get":
            return self.call_dynamic_shared(e, api, expected)
        if api.path.endswith("::from_slice_elem"):
            return self.call_from_slice_elem(e, api)
        gargs = e.func.path.last.generic_args
        if api.const_generics:
            if len(gargs) != api.const_generics:
                self.sink.error("E0107", f"`{api.path}` takes {api.const_generics} generic "
                                f"argument{'s' if api.const_generics > 1 else ''}", e.func.span,
                                f"write `{api.path}::<N>()`")
                return api.ret
            values = []
            for g in gargs:
                v = self.consts.eval_usize(self._const_arg(g))
                values.append(v if v is not None else 1)
            self.r.generic_values[e] = tuple(values)
        elif gargs:
            self.sink.error("E0107", f"`{api.path}` takes no generic arguments", e.func.span,
                            "unexpected generic arguments")
        self.check_args(e, api.params, "function")
        return api.ret

    def call_dynamic_shared(self, e: ast.CallExpr, api: ApiFn, expected) -> T.Ty:
        """`DynamicSharedArray::<T>::get() -> *mut T`: the type argument is on the type."""
        segs = e.func.path.segments
        gargs = segs[-2].generic_args if len(segs) >= 2 else ()
        self.check_args(e, (), "function")
        if e.func.path.last.generic_args or len(gargs) > 1:
            self.sink.error("E0107", "`DynamicSharedArray::get` takes one type argument, on "
                            "the type", e.func.span, "write `DynamicSharedArray::<T>::get()`")
            return T.ERROR
        if gargs:
            elem = self._type_arg(gargs[0])
        else:
            exp = self.shallow(expected) if expected is not None else None
            if not isinstance(exp, T.PtrTy) or isinstance(self.shallow(exp.inner), T.InferTy):
                self.sink.error("E0282", "type annotations needed", e.func.span,
                                "cannot infer the element type of the shared memory",
                                help="write `DynamicSharedArray::<f32>::get()`")
                return T.ERROR
            elem = self.shallow(exp.inner)
        if not isinstance(elem, T.ErrorTy) and not T.is_scalar(elem) and not isinstance(
                elem, (T.ArrayTy, T.StructTy, T.TupleTy)):
            self.sink.error("OX0011", f"`{elem}` cannot live in shared memory", e.func.span,
                            "not a plain data type")
            return T.ERROR
        return T.PtrTy(elem, True)

    def call_from_slice_elem(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """`DeviceAtomicU32::from_slice_elem(&out, i)`: a view of element i of a writable
        slice (a `DisjointSlice<u32>` of any index kind, or a `&mut [u32]`)."""
        view = api.ret
        if len(e.args) != 2:
            self.check_args(e, api.params, "function")
            return view
        st = self.shallow(self.check_expr(e.args[0]))
        inner = self.shallow(st.inner) if isinstance(st, T.RefTy) else None
        ok = isinstance(inner, T.DisjointSliceTy) and self.unify(inner.elem, view.inner) or (
            isinstance(inner, T.RefTy) and inner.mutable and isinstance(inner.inner, T.SliceTy)
            and self.unify(inner.inner.elem, view.inner))
        if not ok and not isinstance(st, T.ErrorTy):
            self.sink.error("E0308", "mismatched types", e.args[0].span,
                            f"expected `&DisjointSlice<{view.inner}>`, found "
                            f"{describe(self.deep(st))}",
                            help=f"an atomic view of a slice element needs a writable slice of "
                                 f"`{view.inner}`: a `DisjointSlice<{view.inner}>` parameter, "
                                 "passed by reference")
        self.coerce(self.check_expr(e.args[1], T.USIZE), T.USIZE, e.args[1].span)
        return view

    def expr_MethodCallExpr(self, e: ast.MethodCallExpr, expected):
        recv = self.shallow(self.check_expr(e.receiver))
        base = recv
        while isinstance(base, T.RefTy) and not isinstance(base.inner, T.SliceTy):
            base = self.shallow(base.inner)
        m = e.method

        def done(kind: str, params: tuple, ret: T.Ty) -> T.Ty:
            self.r.methods[e] = (kind, m)
            fake = ast.CallExpr(func=ast.PathExpr(path=ast.Path(segments=(), span=e.method_span),
                                                  span=e.method_span), args=e.args, span=e.span)
            self.check_args(fake, params, "method")
            return ret

        if isinstance(base, T.ErrorTy):
            for a in e.args:
                self.check_expr(a)
            return T.ERROR
        if isinstance(base, T.AtomicTy):
            return self.atomic_method(e, base)
        if isinstance(base, T.ThreadIndexTy):
            if m == "get":
                return done("thread_index", (), T.USIZE)
            if m == "in_bounds":
                return done("thread_index", (T.USIZE,), T.BOOL)
        if isinstance(base, T.DisjointSliceTy):
            if m == "get_mut":
                return done("disjoint", (T.THREAD_INDEX,), T.OptionTy(T.RefTy(base.elem, True)))
            if m == "len":
                return done("disjoint", (), T.USIZE)
            if m == "get_unchecked_mut":
                return done("disjoint", (T.USIZE,), T.RefTy(base.elem, True))
        if isinstance(base, T.RefTy) and isinstance(base.inner, T.SliceTy):
            if m == "len":
                return done("slice", (), T.USIZE)
        if isinstance(base, T.ArrayTy) and m == "len":
            return done("array", (), T.USIZE)
        if isinstance(base, T.PtrTy) and m == "add":
            return done("ptr", (T.USIZE,), base)
        if isinstance(base, T.RangeTy) and m == "step_by":
            return done("range", (T.USIZE,), base)
        if isinstance(base, T.OptionTy) and m in ("is_some", "is_none"):
            return done("option", (), T.BOOL)
        is_int = isinstance(base, T.IntTy) or (isinstance(base, T.InferTy) and base.kind == "int")
        is_float = isinstance(base, T.FloatTy) or (isinstance(base, T.InferTy) and
                                                   base.kind == "float")
        table = INT_METHODS if is_int else FLOAT_METHODS if is_float else None
        if table is not None and m in table:
            arity, result, _ = table[m]
            ret = recv if result == "self" else T.BOOL if result == "bool" else T.U32
            params = (recv,) * arity
            if is_float:
                params = FLOAT_METHOD_PARAMS.get(m, params)
                if result == "bits":  # to_bits: u32 for f32, u64 for f64
                    ret = T.U32 if isinstance(base, T.FloatTy) and base.bits == 32 else T.U64
            return done("int" if is_int else "float", params, ret)
        if isinstance(base, T.InferTy) and base.kind == "any":
            self.sink.error("E0282", "type annotations needed", e.receiver.span,
                            "type must be known at this point")
            return T.ERROR
        candidates = list(table) if table else {
            T.ThreadIndexTy: ["get", "in_bounds"], T.DisjointSliceTy: ["get_mut", "len",
                                                                       "get_unchecked_mut"],
        }.get(type(base), ["len"])
        hint = nearest(m, candidates)
        for a in e.args:
            if not _ordering_name(a):
                self.check_expr(a)
        help = f"there is a method with a similar name: `{hint}`" if hint else None
        notes = None
        if m in ATOMIC_METHODS and (is_int or is_float):
            help, notes = self.not_atomic_help(e, self.deep(base))
        self.sink.error("E0599", f"no method named `{m}` found for {describe(self.deep(base))} "
                        "in the current scope", e.method_span, "method not found",
                        notes=notes, help=help)
        return T.ERROR

    def not_atomic_help(self, e: ast.MethodCallExpr, ty: T.Ty) -> tuple[str, list[str]]:
        name = str(ty).upper()
        if name not in T.ATOMIC_ELEMS:
            return (f"there are atomics of `u32`, `i32`, `u64`, `i64`, `f32` and `f64`, not of "
                    f"`{ty}`", [f"`{ty}` is not an atomic type"])
        place = e.receiver.span.text()
        notes = [f"`{ty}` is not an atomic type: plain reads and writes of it are not atomic"]
        base = e.receiver
        while isinstance(base, (ast.IndexExpr, ast.FieldExpr)):
            base = base.base
        if isinstance(base, ast.PathExpr) and isinstance(self.r.res.get(base), StaticRes):
            return (f"`{place}` is in shared memory: take an atomic view of it with "
                    f"`BlockAtomic{name}::from_mut(&mut {place})` and call `.{e.method}(..)` "
                    "on that", notes)
        return (f"take an atomic view of the value: `BlockAtomic{name}::from_mut(&mut ..)` in "
                f"shared memory, `DeviceAtomic{name}::from_mut(..)` or `DeviceAtomic{name}::"
                "from_slice_elem(&slice, i)` in global memory", notes)

    def atomic_method(self, e: ast.MethodCallExpr, view: T.AtomicTy) -> T.Ty:
        """`view.fetch_add(v, AtomicOrdering::Relaxed)` and the other atomic methods."""
        m, elem = e.method, view.inner
        methods = ATOMIC_METHODS if T.is_integer(elem) else \
            {k: v for k, v in ATOMIC_METHODS.items() if k in FLOAT_ATOMIC_METHODS}
        if m not in methods:
            for a in e.args:
                if not _ordering_name(a):
                    self.check_expr(a)
            hint = nearest(m, methods)
            self.sink.error("E0599", f"no method named `{m}` found for `{view}` in the current "
                            "scope", e.method_span, "method not found",
                            notes=[f"`{view}` has " + ", ".join(f"`{k}`" for k in methods)]
                            if m in ATOMIC_METHODS else None,
                            help=f"there is a method with a similar name: `{hint}`"
                            if hint and m not in ATOMIC_METHODS else None)
            return T.ERROR
        op, nvalues = methods[m]
        norders = (1, 2) if m == "compare_exchange" else (1,)
        if len(e.args) - nvalues not in norders:
            want = nvalues + norders[0]
            expected = f"{want}" + (f" or {want + 1}" if len(norders) > 1 else "")
            self.sink.error("E0061", f"this method takes {expected} arguments but "
                            f"{len(e.args)} {'was' if len(e.args) == 1 else 'were'} supplied",
                            e.method_span, f"expected {expected} arguments",
                            notes=["the values come first, then the `AtomicOrdering`"])
            for a in e.args:
                if not _ordering_name(a):
                    self.check_expr(a)
            return T.ERROR
        for a in e.args[:nvalues]:
            self.coerce(self.check_expr(a, elem), elem, a.span)
        orders = [self.check_ordering(a) for a in e.args[nvalues:]]
        self.check_ordering_allowed(e, m, orders)
        self.r.methods[e] = ("atomic", m)
        self.r.atomic_orderings[e] = tuple(orders)
        return T.UNIT if m == "store" else elem

    def check_ordering(self, a: ast.Expr) -> str:
        """An `AtomicOrdering::X` argument, as its MIR name ("relaxed", ...)."""
        self.r.expr_ty[a] = T.ORDERING
        name = _ordering_name(a)
        if name is None:
            ty = self.check_expr(a)
            if not isinstance(self.shallow(ty), T.ErrorTy):
                self.mismatch(T.ORDERING, ty, a.span)
            self.r.expr_ty[a] = T.ORDERING
            return "seq_cst"
        if name not in ORDERINGS:
            hint = nearest(name, ORDERINGS)
            self.sink.error("E0599", f"no variant named `{name}` found for enum "
                            "`AtomicOrdering`", a.span, "variant not found",
                            help=f"there is a variant with a similar name: `{hint}`" if hint
                            else "the orderings are `Relaxed`, `Acquire`, `Release`, `AcqRel` "
                            "and `SeqCst`")
            return "seq_cst"
        return ORDERINGS[name]

    def check_ordering_allowed(self, e: ast.MethodCallExpr, m: str, orders: list[str]) -> None:
        """Rust's `invalid_atomic_ordering`: orderings that make no sense for the operation."""
        bad = None
        if m == "load" and orders[0] in ("release", "acq_rel"):
            bad = ("atomic loads cannot have `Release` or `AcqRel` ordering",
                   "consider using ordering modes `Acquire`, `SeqCst` or `Relaxed`")
        elif m == "store" and orders[0] in ("acquire", "acq_rel"):
            bad = ("atomic stores cannot have `Acquire` or `AcqRel` ordering",
                   "consider using ordering modes `Release`, `SeqCst` or `Relaxed`")
        elif m == "compare_exchange" and len(orders) == 2 and orders[1] in ("release", "acq_rel"):
            bad = ("`compare_exchange`'s failure ordering may not be `Release` or `AcqRel`, "
                   "since a failed `compare_exchange` does not result in a write",
                   "consider using `Acquire` or `Relaxed` failure ordering instead")
        if bad:
            self.sink.error("OX0011", bad[0], e.args[-1].span, "invalid ordering", help=bad[1])

    def expr_MacroCallExpr(self, e: ast.MacroCallExpr, expected):
        if e.name.split("::")[-1] == "gpu_printf":
            return self.check_printf(e)
        if e.name in ("gpu_assert", "assert", "debug_assert"):
            if len(e.args) != 1:
                self.sink.error("OX0002", f"`{e.name}!` takes one condition here", e.span,
                                "expected one argument",
                                help="messages in assertions are not supported yet")
                for a in e.args:
                    self.check_expr(a)
                return T.UNIT
            self.coerce(self.check_expr(e.args[0], T.BOOL), T.BOOL, e.args[0].span)
            return T.UNIT
        for a in e.args:
            if not (isinstance(a, ast.LitExpr) and a.kind == "str"):
                self.check_expr(a)
        self.unsupported(e.span, f"the macro `{e.name}!`")
        return T.ERROR

    def check_printf(self, e: ast.MacroCallExpr) -> T.Ty:
        """`gpu_printf!("fmt {}", x)`: a string literal, then one scalar per placeholder."""
        if not e.args or not (isinstance(e.args[0], ast.LitExpr) and e.args[0].kind == "str"):
            self.sink.error("OX0011", "`gpu_printf!` takes a format string literal first",
                            e.args[0].span if e.args else e.span, "expected a string literal",
                            help='write `gpu_printf!("x = {}\\n", x)`')
            for a in e.args:
                self.check_expr(a)
            return T.UNIT
        lit, values = e.args[0], e.args[1:]
        tys = [self.check_expr(a) for a in values]
        try:
            specs = printf.placeholders(printf.parse(lit.value))
        except printf.FormatError as err:
            self.sink.error("OX0011", err.message, lit.span, "in this format string",
                            help=err.help)
            return T.UNIT
        if len(specs) != len(values):
            n = len(specs)
            self.sink.error("OX0011", f"{n} positional argument{'s' if n != 1 else ''} in "
                            f"format string, but there {'is' if len(values) == 1 else 'are'} "
                            f"{len(values)} argument{'s' if len(values) != 1 else ''}",
                            lit.span, f"{n} placeholder{'s' if n != 1 else ''}")
            return T.UNIT
        for a, spec, ty in zip(values, specs, tys):
            why = printf.check_spec(spec, self.shallow(ty))
            if why is not None and not isinstance(self.shallow(ty), T.ErrorTy):
                self.sink.error("OX0011", why, a.span, f"formatted by `{spec.text}`")
        return T.UNIT

    # -- control flow ------------------------------------------------------
    def check_cond(self, cond: ast.Expr) -> None:
        """An `if`/`while` condition: a bool, or `let PAT = EXPR` binding into the body scope."""
        if isinstance(cond, ast.LetExpr):
            ty = self.check_expr(cond.scrutinee)
            self.bind_pattern(cond.pat, ty, irrefutable=False)
            self.r.expr_ty[cond] = T.BOOL
        else:
            self.coerce(self.check_expr(cond, T.BOOL), T.BOOL, cond.span)

    def expr_IfExpr(self, e: ast.IfExpr, expected):
        self.ctx.scopes.append({})
        self.check_cond(e.cond)
        then_ty = self.check_block(e.then, expected if e.else_ is not None else T.UNIT)
        self.ctx.scopes.pop()
        if e.else_ is None:
            t = self.shallow(then_ty)
            if not isinstance(t, (T.UnitTy, T.NeverTy, T.ErrorTy)):
                self.sink.error("E0317", "`if` may be missing an `else` clause", e.span,
                                f"expected `()`, found {describe(self.deep(t))}",
                                notes=["`if` expressions without `else` evaluate to `()`"],
                                help="consider adding an `else` block that evaluates to the "
                                     "expected type")
            return T.UNIT
        else_ty = self.check_expr(e.else_, expected if expected is not None else then_ty)
        if isinstance(self.shallow(then_ty), T.NeverTy):
            return else_ty
        if isinstance(self.shallow(else_ty), T.NeverTy):
            return then_ty
        if not self.unify(then_ty, else_ty):
            span = e.else_.block.tail.span if isinstance(e.else_, ast.BlockExpr) and \
                e.else_.block.tail is not None else e.else_.span
            self.sink.error("E0308", "`if` and `else` have incompatible types", span,
                            f"expected {describe(self.deep(then_ty))}, found "
                            f"{describe(self.deep(else_ty))}",
                            labels=[Label((e.then.tail or e.then).span,
                                          "expected because of this")])
            return T.ERROR
        return then_ty

    def expr_WhileExpr(self, e: ast.WhileExpr, expected):
        self.ctx.scopes.append({})
        self.check_cond(e.cond)
        self.ctx.loops.append(Loop(e.label, False))
        self.check_block(e.body, T.UNIT)
        self.ctx.loops.pop()
        self.ctx.scopes.pop()
        return T.UNIT

    def expr_LoopExpr(self, e: ast.LoopExpr, expected):
        loop = Loop(e.label, True)
        self.ctx.loops.append(loop)
        self.check_block(e.body, T.UNIT)
        self.ctx.loops.pop()
        return loop.break_ty if loop.break_ty is not None else T.NEVER

    def expr_ForExpr(self, e: ast.ForExpr, expected):
        it = self.shallow(self.check_expr(e.iter))
        if isinstance(it, T.RangeTy):
            elem = it.elem
        elif isinstance(it, T.ArrayTy):
            elem = it.elem
        else:
            if not isinstance(it, T.ErrorTy):
                self.sink.error("E0277", f"`{self.deep(it)}` is not an iterator", e.iter.span,
                                "not an iterator",
                                help="iterate over a range `a..b`, `(a..b).step_by(s)` or an "
                                     "array")
            elem = T.ERROR
        self.ctx.scopes.append({})
        self.bind_pattern(e.pat, elem, irrefutable=True)
        self.ctx.loops.append(Loop(e.label, False))
        self.check_block(e.body, T.UNIT)
        self.ctx.loops.pop()
        self.ctx.scopes.pop()
        for a in e.attrs:
            if a.name != "unroll":
                self.sink.error("OX0003", f"attribute `#[{a.name}]` is not allowed on a loop",
                                a.span, "not allowed here")
        return T.UNIT

    def find_loop(self, label: str | None, span: Span, what: str) -> Loop | None:
        for loop in reversed(self.ctx.loops):
            if label is None or loop.label == label:
                return loop
        if label is not None:
            self.sink.error("E0426", f"use of undeclared label `'{label}`", span,
                            f"undeclared label `'{label}`")
        else:
            self.sink.error("E0268", f"`{what}` outside of a loop", span,
                            f"cannot `{what}` outside of a loop")
        return None

    def expr_BreakExpr(self, e: ast.BreakExpr, expected):
        loop = self.find_loop(e.label, e.span, "break")
        if e.value is not None:
            if loop is not None and not loop.is_loop:
                self.sink.error("E0571", "`break` with value from a `while` or `for` loop",
                                e.span, "can only break with a value inside `loop`")
                self.check_expr(e.value)
            elif loop is not None:
                if loop.break_ty is None:
                    loop.break_ty = self.check_expr(e.value)
                else:
                    self.coerce(self.check_expr(e.value, loop.break_ty), loop.break_ty,
                                e.value.span)
        elif loop is not None and loop.is_loop:
            if loop.break_ty is None:
                loop.break_ty = T.UNIT
            elif not self.unify(loop.break_ty, T.UNIT):
                self.mismatch(loop.break_ty, T.UNIT, e.span)
        return T.NEVER

    def expr_ContinueExpr(self, e: ast.ContinueExpr, expected):
        self.find_loop(e.label, e.span, "continue")
        return T.NEVER

    def expr_ReturnExpr(self, e: ast.ReturnExpr, expected):
        ret = self.ctx.sig.ret
        if e.value is not None:
            self.coerce(self.check_expr(e.value, ret), ret, e.value.span)
        elif ret != T.UNIT and not isinstance(ret, T.ErrorTy):
            self.sink.error("E0069", "`return;` in a function whose return type is not `()`",
                            e.span, f"return type is `{ret}`")
        return T.NEVER

    def expr_LetExpr(self, e: ast.LetExpr, expected):
        self.sink.error("OX0002", "`let` expressions are only supported directly in `if` and "
                        "`while` conditions", e.span, "not supported here")
        return T.ERROR


def _ordering_name(e: ast.Expr) -> str | None:
    """`X` of an argument written `AtomicOrdering::X` (or `Ordering::X`, with any prefix)."""
    if isinstance(e, ast.PathExpr):
        names = e.path.names
        if len(names) >= 2 and names[-2] in ("AtomicOrdering", "Ordering"):
            return names[-1]
    return None


def _expr_kind(e: ast.Expr) -> str:
    return {"MatchExpr": "match"}.get(type(e).__name__, type(e).__name__)


def typeck(items: ItemTable, sink: DiagnosticSink) -> TypeckResults:
    return Typeck(items, sink).run()
