"""Items: function signatures, kernel signature rules, module statics; the `Typeck` class that
brings the mixins together.
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..consteval import ConstEvaluator
from ..diagnostics import DiagnosticSink
from ..resolve import ItemTable, Resolver, attr
from ..span import Span
from .results import (ConstRes, FnCtx, FnSig, TypeckResults, Var)
from .infer import InferMixin
from .types import TypeLoweringMixin
from .stmts import StmtMixin
from .patterns import PatternMixin
from .expr import ExprMixin
from .enums import EnumMixin
from .match_ import MatchMixin
from .calls import CallMixin
from .methods import MethodMixin
from .macros import MacroMixin
from .control import ControlMixin
from .method_lookup import UserMethodMixin
from .item_paths import ItemPathMixin
from .aggregates import AggregateOpsMixin
from .statics import StaticsMixin
from .reach import ReachMixin
from .api import ApiMixin, target_sm
from .generics import GenericsMixin, is_generic
from .generic_calls import GenericCallsMixin
from .generic_enums import GenericEnumsMixin
from .generic_bounds import GenericBoundsMixin
from .traits import TraitMixin
from .instance_impls import InstanceImplMixin
from .fn_values import FnValueMixin
from .unions import UnionMixin
from .trait_ops import TraitOpsMixin
from .closures import ClosureMixin
from .iterators import IteratorMixin
from .pointers import PointerMixin
from .slices import SliceMixin
from .panics import PanicMixin
from .uninit import UninitMixin
from .barriers import BarrierMixin
from .cusimd import CuSimdMixin
from .coop_ops import CoopOpsMixin
from .views import ViewMixin
from .prim_paths import PrimPathMixin


class Typeck(ClosureMixin, IteratorMixin,
             InferMixin, TypeLoweringMixin, StmtMixin, PatternMixin, ExprMixin, CallMixin,
             UserMethodMixin, MethodMixin, MacroMixin, ControlMixin, ApiMixin, ReachMixin,
             ItemPathMixin, AggregateOpsMixin, StaticsMixin, EnumMixin, MatchMixin, GenericsMixin,
             GenericCallsMixin, GenericEnumsMixin, GenericBoundsMixin, TraitMixin, TraitOpsMixin,
             PointerMixin, SliceMixin, PanicMixin, UninitMixin, InstanceImplMixin,
             FnValueMixin, BarrierMixin, CuSimdMixin, CoopOpsMixin, UnionMixin, ViewMixin,
             PrimPathMixin):
    def __init__(self, items: ItemTable, sink: DiagnosticSink, arch: str = "sm_80"):
        self.items = items
        self.sink = sink
        self.target_sm = target_sm(arch)
        self.resolver = Resolver(items, sink)
        self.module = items.root  # the scope names are looked up in
        self.self_ty: T.Ty | None = None  # `Self` inside an `impl`
        self.cur_impl = None  # the trait impl being checked (resolve/traits.py ImplInfo)
        self.queue: list[str] = []  # fns reached but not yet checked (ReachMixin)
        self.r = TypeckResults()
        self.subst: dict[int, T.Ty] = {}
        self.nvars = 0
        self.consts = ConstEvaluator(items, sink, self.lower_type, self)
        self.ctx: FnCtx | None = None
        self.negated: set[ast.LitExpr] = set()
        self.neg_counted: set[ast.Expr] = set()  # operands of negations that count
        self.init_generics()

    # -- items -------------------------------------------------------------
    def run(self) -> TypeckResults:
        """Check what the kernels reach: kernels and `#[device]` fns are the roots; a plain
        `fn` or a method is checked when checked code calls it (`request_fn`)."""
        for key, fn in list(self.items.fns.items()):
            if self.items.is_device_root(fn) and not is_generic(self.items, fn):
                self.request_fn(key)
        self.instantiate_kernels()
        while self.queue:
            self.check_fn(self.r.fn_sigs[self.queue.pop(0)])
        self.finalize_results()
        for key, item in list(self.items.enums.items()):
            if not item.generics or key in self.adt_instances:
                self.enum_ty(key)
        # bodies in source order, as they always were (the PTX lists them so)
        order = sorted(self.r.fn_sigs.items(), key=lambda kv: kv[1].item.span.start)
        self.r.fn_sigs = dict(order)
        return self.r

    def signature(self, fn: ast.FnItem) -> FnSig:
        with self.in_scope_of(fn):
            return self._signature(fn)

    def _signature(self, fn: ast.FnItem) -> FnSig:
        kind = self.items.fn_kind(fn)
        params = tuple(self.lower_type(p.ty) for p in fn.params)
        ret = self.lower_type(fn.ret) if fn.ret else T.UNIT
        if isinstance(ret, T.FnBoundTy):  # the returned closure is reported (closures.py)
            ret = T.ERROR
        sig = FnSig(self.items.key_of(fn), kind, params, ret, fn.is_unsafe, fn)
        aggregates = (T.StructTy, T.TupleTy, T.ArrayTy)
        inlined = any(isinstance(p, T.RefTy) and isinstance(p.inner, aggregates)
                      for p in params)  # a reference into one: inlined (lower/user_calls.py)
        if kind != "kernel" and isinstance(ret, T.RefTy) and isinstance(
                ret.inner, aggregates) and not inlined:
            # `&S` results live in no memory: only a reference into a parameter is one
            self.unsupported(fn.ret.span, "returning a reference to a struct, tuple or array "
                             "from a function", help="return the value itself (or `()` after "
                             "updating `&mut self`)")
        if kind == "kernel":
            self.check_kernel_signature(sig)
            kattr = attr(fn, "kernel")
            if kattr and kattr.args and any(isinstance(a, ast.PathExpr) and
                                            a.path.names == ("unchecked_indexing",)
                                            for a in kattr.args):
                self.r.kernels_unchecked.add(fn.name)
                self.r.kernels_unchecked.add(sig.name)
            contract = attr(fn, "launch_contract")
            if contract is not None:
                from .contract import parse_contract
                parsed = parse_contract(fn, contract, self.consts, self.lower_type, self.sink)
                if parsed is not None:
                    self.r.contracts[fn.name] = parsed
        coop = attr(fn, "cooperative_launch")
        if coop is not None and self.check_cooperative_launch(coop, kind == "kernel"):
            self.r.cooperative.add(fn.name)
        cluster = attr(fn, "cluster_launch")
        if cluster is not None:
            shape = self.check_cluster_launch(cluster, kind == "kernel")
            if shape is not None:
                self.r.cluster_shapes[fn.name] = shape
        return sig

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
        if T.is_scalar(ty) or isinstance(ty, (T.DisjointSliceTy, T.PtrTy, T.ErrorTy,
                                               T.Runtime2DSliceTy)):
            return True
        if isinstance(ty, T.RefTy):
            return isinstance(ty.inner, T.SliceTy) or T.is_scalar(ty.inner)
        if isinstance(ty, (T.StructTy, T.EnumTy)):
            return ty.is_copy
        return False

    def check_fn(self, sig: FnSig) -> None:
        with self.in_scope_of(sig.item):
            self._check_fn(sig)

    def _check_fn(self, sig: FnSig) -> None:
        fn = sig.item
        self.ctx = ctx = FnCtx(sig, scopes=[self.generic_value_scope()])
        for p, ty in zip(fn.params, sig.params):
            if isinstance(p.pat, ast.IdentPat):
                var = Var(p.pat.name, ty, p.pat.mutable, p.pat.span)
                self.r.param_var[p] = var
                self.note_param_var(p, var)
                self.r.pat_var[p.pat] = var
                ctx.scopes[-1][p.pat.name] = var
            elif not isinstance(p.pat, ast.WildPat):  # `(a, (b, c)): (u32, (u32, u32))`
                self.bind_pattern(p.pat, ty, irrefutable=True)
        ctx_arg = launch_context_arg(fn)
        if ctx_arg is not None:  # `#[kernel(launch_context = NAME)]`
            var = Var(ctx_arg.rhs.path.names[0], T.LAUNCH_CONTEXT, False, ctx_arg.rhs.span)
            self.r.launch_context[fn.name] = var
            ctx.scopes[-1][var.name] = var
        self.eval_launch_bounds(sig)
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
        self.check_closure_escapes(fn.body)
        self.ctx = None

    def eval_launch_bounds(self, sig: FnSig) -> None:
        """`#[launch_bounds(P::MAX_THREADS, P::MIN_BLOCKS)]`: constant `u32` expressions,
        evaluated for this instance of the kernel (lower/builder.py reads literals itself)."""
        lb = attr(sig.item, "launch_bounds")
        if lb is None or not lb.args or len(lb.args) > 2 or all(
                isinstance(a, ast.LitExpr) and a.kind == "int" for a in lb.args):
            return
        vals = [self.const_u32_arg(a) for a in lb.args]
        if None not in vals:
            self.r.launch_bounds[sig.name] = tuple(vals)

    def const_u32_arg(self, a: ast.Expr) -> int | None:
        """An attribute's argument that is a constant `u32` expression (`P::UNROLL`, `N * 2`)
        in the instance being checked; None (reported) when it is not one."""
        if isinstance(a, ast.LitExpr) and a.kind == "int":
            return a.value
        self.check_expr(a, T.U32)  # `P::MAX`: the instance's associated constant
        res = self.r.res.get(a)
        v = res.value if isinstance(res, ConstRes) else self.consts.eval(a, T.U32)
        return v.value if v is not None and isinstance(v.value, int) else None

    def finish_fn(self, ctx: FnCtx) -> None:
        for var, span in ctx.lets:
            t = self.deep(var.ty)
            if isinstance(t, T.InferTy) and t.kind == "any":
                self.sink.error("E0282", "type annotations needed", span,
                                f"cannot infer the type of `{var.name}`",
                                help=f"give `{var.name}` a type: `let {var.name}: T = ...`")
        for match in ctx.matches:
            self.check_exhaustive(*match)
        for lit, negated in ctx.lits:
            self.check_literal_range(lit, self.finalize(self.r.expr_ty[lit]), negated)
        self.finish_transmutes()
        self.finish_uninits()

    def finalize_results(self) -> None:
        """Apply inference results and literal defaults to every side table, once for the
        whole program (per function it made type checking quadratic in the file's size)."""
        for e, t in self.r.expr_ty.items():
            self.r.expr_ty[e] = self.finalize(t)
        for var in self.r.pat_var.values():
            var.ty = self.finalize(var.ty)
        for p, t in self.r.pat_ty.items():
            self.r.pat_ty[p] = self.finalize(t)

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
        names = [n for s in self.ctx.scopes for n in s] if self.ctx else []
        return names + self.resolver.visible(self.module, "value")


def launch_context_arg(fn: ast.FnItem) -> ast.AssignExpr | None:
    """`launch_context = NAME` among the arguments of `#[kernel(..)]`."""
    kattr = attr(fn, "kernel")
    for a in (kattr.args or ()) if kattr else ():
        if isinstance(a, ast.AssignExpr) and isinstance(a.lhs, ast.PathExpr) and \
                a.lhs.path.names == ("launch_context",) and isinstance(a.rhs, ast.PathExpr) \
                and len(a.rhs.path.names) == 1:
            return a
    return None


def typeck(items: ItemTable, sink: DiagnosticSink, arch: str = "sm_80") -> TypeckResults:
    """`arch`: the build's target, for items of the device API that need a newer sm."""
    return Typeck(items, sink, arch).run()
