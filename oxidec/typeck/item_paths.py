"""Paths that name items: consts, statics, unit structs, associated consts, through the
module tree (resolve/paths.py).

    path_expr: IDENT ("::" IDENT)*      `N`, `geo::N`, `crate::N`, `S::N`, `Self::N`, `U`
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from .. import types as T
from ..diagnostics import DiagnosticSink
from ..resolve import Res
from ..resolve.table import EXTERN_CRATES
from .reach import HOST_TYPES
from .results import ConstRes, StaticRes, nearest
from ..const_aggregates import is_aggregate, pack


def _api_namespace(first: str) -> bool:
    """Whether a path starting with `first` may be the device API's or a builtin type's
    (`thread::..`, `warp::..`, `DeviceAtomicU32::..`, `f32::..`, `core::..`)."""
    from ..device_api import api_names
    from ..device_api.arch import BLACKWELL_MODULES
    return first in EXTERN_CRATES or first in BLACKWELL_MODULES or first in T.SCALARS or first[:1].isupper() and \
        first in ("Option", "SharedArray", "DisjointSlice", "AtomicOrdering", "Ordering") \
        or any(p.split("::")[0] == first for p in api_names()) or first == "atomic"


@dataclass(frozen=True)
class InlineConst:
    """A `const` whose value is an aggregate or calls a function: its expression is checked
    once (in the const's scope) and lowered at each use, as Rust inlines consts."""

    item: ast.ConstItem
    ty: T.Ty


_COMPUTED = (ast.CallExpr, ast.MethodCallExpr, ast.StructExpr, ast.TupleExpr, ast.ArrayExpr,
             ast.ArrayRepeatExpr, ast.IfExpr, ast.MatchExpr, ast.FieldExpr, ast.IndexExpr,
             ast.LoopExpr, ast.WhileExpr, ast.ForExpr)


def _computed(e: ast.Expr) -> bool:
    """Whether a const's value needs more than the scalar const folder (consteval.py)."""
    if isinstance(e, _COMPUTED):
        return True
    if isinstance(e, ast.RefExpr) and not e.raw:  # `&TABLE`: a reference to a global
        return True
    if isinstance(e, ast.BlockExpr):
        return bool(e.block.stmts) or (e.block.tail is not None and _computed(e.block.tail))
    if isinstance(e, (ast.UnaryExpr, ast.CastExpr)):
        return _computed(e.operand if isinstance(e, ast.UnaryExpr) else e.expr)
    if isinstance(e, ast.BinaryExpr):
        return _computed(e.lhs) or _computed(e.rhs)
    return False


def _small_literal(e: ast.Expr) -> bool:
    """A short aggregate written out (`[0.5, 0.25]`, `P { a: 1, b: 2.0 }`): it stays inlined
    at its uses (InlineConst), where constant indices fold it to immediates; a bigger or a
    computed one is a device global (const_global)."""
    count = 0
    todo = [e]
    while todo:
        x = todo.pop()
        count += 1
        if isinstance(x, (ast.ArrayExpr, ast.TupleExpr)):
            todo.extend(x.elems)
        elif isinstance(x, ast.StructExpr) and x.base is None:
            todo.extend(v for _, v in x.fields)
        elif isinstance(x, (ast.UnaryExpr, ast.CastExpr)):
            todo.append(x.operand if isinstance(x, ast.UnaryExpr) else x.expr)
        elif not isinstance(x, ast.LitExpr):
            return False
    return count <= SMALL_LITERAL


SMALL_LITERAL = 64


class ItemPathMixin:

    def inline_const(self, item: ast.ConstItem) -> InlineConst | None:
        """The const as an inlined expression, when it is one (see InlineConst): a scalar
        const the const evaluator folds (`const fn` calls included) stays a constant."""
        if self.ctx is None:
            return None
        memo = self.__dict__.setdefault("_inline_consts", {})
        if id(item) in memo:
            return memo[id(item)]
        with self.in_scope_of(item):
            ty = self.lower_type(item.ty)
            if not _computed(item.value) and not isinstance(ty, (T.EnumTy, T.StructTy)):
                memo[id(item)] = None  # `None`, `E::Unit`: an enum value, not a scalar
                return None
            if T.is_scalar(ty) and self.consts.try_eval_item(item) is not None:
                memo[id(item)] = None
                return None
            if T.is_scalar(ty):
                self.report_const_failure(item)
            res = memo[id(item)] = InlineConst(item, ty)
            saved = self.ctx.scopes
            self.ctx.scopes = [{}]  # a const's value sees items, not the function's locals
            try:
                self.coerce(self.check_expr(item.value, ty), ty, item.value.span)
            finally:
                self.ctx.scopes = saved
        return res

    def const_global(self, item: ast.ConstItem) -> StaticRes | None:
        """An array, tuple or struct const that the const evaluator computes: a read-only
        device global holding its value (const_aggregates.py), made once; None for any
        other const. Rust computes such a const at compile time too."""
        memo = self.__dict__.setdefault("_const_globals", {})
        if id(item) in memo:
            return memo[id(item)]
        memo[id(item)] = None
        with self.in_scope_of(item):
            ty = self.lower_type(item.ty)
            if not is_aggregate(ty) or _small_literal(item.value):
                return None
            if self.ctx is not None:  # types for the evaluator's `let`s (const_fn.py)
                saved = self.ctx.scopes
                self.ctx.scopes = [{}]
                try:
                    self.coerce(self.check_expr(item.value, ty), ty, item.value.span)
                finally:
                    self.ctx.scopes = saved
            value = self.consts.try_eval_item(item)
            if value is None:
                self.report_const_failure(item)
        if value is None:
            return None
        name = f"{item.name}$const{len(memo)}"
        res = memo[id(item)] = StaticRes(name, ty, False, item.name_span, "global",
                                         pack(value.value, ty))
        self.r.statics[name] = res
        return res

    def report_const_failure(self, item: ast.ConstItem) -> None:
        """The evaluator could not compute an aggregate const: if that is because its
        evaluation fails (an index out of bounds, a division by zero), that is rustc's
        E0080 and reported; if it is something oxidec does not evaluate, the const is
        computed at each use instead (inline_const)."""
        scratch = DiagnosticSink()
        saved, self.consts.sink = self.consts.sink, scratch
        try:
            self.consts.eval_item(item)
        finally:
            self.consts.sink = saved
            self.consts.memo.pop(self.consts.item_key(item), None)
        for d in scratch.diagnostics:
            if d.code == "E0080" and "cannot be evaluated" not in d.primary.message:
                self.sink.emit(d)

    def const_value(self, e: ast.PathExpr, item: ast.ConstItem) -> T.Ty:
        glob = self.const_global(item)
        if glob is not None:
            self.r.res[e] = glob
            return glob.ty
        inline = self.inline_const(item)
        if inline is not None:
            self.r.res[e] = inline
            return inline.ty
        value = self.consts.eval_item(item)
        return T.ERROR if value is None else self._item_res(e, ConstRes(value))

    def resolve_value_path(self, path: ast.Path) -> Res | None:
        """A local item or associated item a value path names; None for anything else
        (locals, the device API, `u32::MAX`, a path that names nothing)."""
        names = path.names
        if names[0] == "Self":
            owner = self.self_def()
            if owner is None or len(names) > 2:
                return None
            # `Self(a, b)` / `Self` name the type itself (a tuple or unit struct's value)
            return Res(def_=owner, assoc=names[1] if len(names) == 2 else None)
        res = self.resolver.walk(self.module, names, "value")
        if res is None or res.extern is not None:
            return None
        return res

    def self_def(self):
        if isinstance(self.self_ty, (T.StructTy, T.EnumTy)):
            item = self.items.adts.get(self.self_ty.name)
            return self.items.def_of(item) if item is not None else None
        return None

    def local_path_failed(self, path: ast.Path, ns: str, what: str | None = None) -> bool:
        """A path that names nothing and starts in this crate (a module, a type, `crate`,
        `self`, `super`): report it rustc's way and say True. Paths starting elsewhere
        (`thread::..`, `cuda_device::..`, `u32::..`) are the device API's (say False)."""
        first = path.names[0]
        if isinstance(self.generic_env.get(first), T.Ty) and len(path.names) == 2:
            return self.assoc_of_param(path)  # `T::MAX`: only a bound could provide it
        if first in ("crate", "self", "super"):
            self.resolver.resolve(self.module, path, ns, what=what)
            return True
        head = self.resolver.lookup(self.module, first, "type")
        if head is None and first in HOST_TYPES:  # `Vec::new()`
            self.host_type_error(first, path.segments[0].span)
            return True
        if head is None and not _api_namespace(first):
            self.resolver.resolve(self.module, path, ns, what=what)  # E0433
            return True
        if head is None or head.extern is not None or first in EXTERN_CRATES:
            return False
        if head.def_ is not None and len(path.names) == 2:
            kind = "struct" if head.def_.kind == "struct" else head.def_.kind
            self.sink.error("E0599", f"no function or associated item named `{path.names[1]}` "
                            f"found for {kind} `{head.def_.name}` in the current scope",
                            path.segments[1].span,
                            f"function or associated item not found in `{head.def_.name}`",
                            help=self._assoc_hint(head.def_, path.names[1]))
            return True
        self.resolver.resolve(self.module, path, ns, what=what)
        return True

    def _assoc_hint(self, owner, name: str) -> str | None:
        cands = [n for (k, n) in self.items.assoc if k == owner.key]
        hint = nearest(name, cands)
        return f"there is an associated item with a similar name: `{hint}`" if hint else None

    def value_item(self, e: ast.PathExpr, d, expected) -> T.Ty:
        """A path naming an item used as a value."""
        if d.kind == "const":
            return self.const_value(e, d.item)
        if d.kind == "static":
            return self.module_static(e, d)
        if d.kind == "struct" and d.item.shape == "unit":
            ty = self.adt_ty(d.key)
            self.r.res[e] = ("unit_struct", ty)
            return ty
        if d.kind == "struct":
            self.sink.error("E0423", f"expected value, found struct `{d.name}`", e.span,
                            "not a value", help=f"use struct literal syntax instead: "
                            f"`{d.name} {{ .. }}`" if d.item.shape == "named" else None)
            return T.ERROR
        if d.kind in ("fn", "host_fn"):
            return self.fn_value(e, d, expected)  # typeck/fn_values.py
        self.unsupported(e.span, "functions used as values")
        return T.ERROR

    def assoc_env_of_path(self, e: ast.PathExpr) -> dict:
        """`assoc_const_env` for the associated const a path names, if it names one."""
        res = self.resolve_value_path(e.path)
        if res is None or res.def_ is None or res.assoc is None:
            return {}
        d = self.items.assoc.get((res.def_.key, res.assoc))
        return self.assoc_const_env(e, d) if d is not None and d.kind == "const" else {}

    def assoc_const_env(self, e: ast.PathExpr, d) -> dict:
        """The impl parameters an associated const of a generic impl is evaluated with:
        from the instance the path names (`Grid::<3>::LEN`, `Self::LEN`)."""
        if d.impl_item is None or not d.impl_item.generics:
            return {}
        segs = e.path.segments
        if segs[0].name == "Self" and self.self_ty is not None:
            return self.impl_env(d.item, getattr(self.self_ty, "name", None))
        if segs[0].name == "Self":  # in the generic impl itself: the parameters in scope
            names = {p.name for p in d.impl_item.generics.params}
            return {k: v for k, v in self.generic_env.items() if k in names}
        if len(segs) >= 2 and segs[-2].generic_args:
            owner = self.lower_type(ast.PathType(path=ast.Path(segments=segs[:-1],
                                                               span=e.span), span=e.span))
            return self.impl_env(d.item, getattr(owner, "name", None))
        return {}

    def assoc_value(self, e: ast.PathExpr, owner, name: str, expected) -> T.Ty:
        """`S::N`, `Self::N`: an associated const of an inherent impl."""
        d = self.items.assoc.get((owner.key, name))
        if d is None:
            self.sink.error("E0599", f"no associated item named `{name}` found for struct "
                            f"`{owner.name}` in the current scope", e.path.last.span,
                            f"associated item not found in `{owner.name}`",
                            help=self._assoc_hint(owner, name))
            return T.ERROR
        if d.kind == "const":
            env = self.assoc_const_env(e, d)
            if not env:
                return self.const_value(e, d.item)
            self.consts.assoc_env = env  # the instance's parameters (consteval.eval_item)
            try:
                return self.const_value(e, d.item)
            finally:
                self.consts.assoc_env = {}
        if d.kind == "fn":
            return self.fn_value(e, d)  # typeck/fn_values.py
        self.unsupported(e.span, "functions used as values")
        return T.ERROR
