"""Inference variables and unification: Rust's literal inference (integer and float variables that
default to `i32`/`f64`) and coercions.
"""
from __future__ import annotations


from .. import types as T
from ..diagnostics import Label
from ..span import Span
from .operators import conversion_help
from .results import (describe)
from .uninit import is_maybe_uninit, maybe_uninit_ty


class InferMixin:

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
        if isinstance(ty, T.EnumTy) and ty.args:
            return _rebuild_enum(ty, [self.deep(a) for a in ty.args])
        if isinstance(ty, T.RangeTy):
            return T.RangeTy(self.deep(ty.elem))
        if isinstance(ty, T.SliceTy):
            return T.SliceTy(self.deep(ty.elem))
        if isinstance(ty, (T.IterTy, T.ClosureTy, T.FnBoundTy)):
            return self._map_children(ty, self.deep)
        if isinstance(ty, T.StructTy) and is_maybe_uninit(ty):  # its `T` may be inferred
            return maybe_uninit_ty(self.deep(ty.fields[0][1]))
        return ty

    def finalize(self, ty: T.Ty) -> T.Ty:
        """The type after inference, with Rust's literal defaults applied. (Each level is
        resolved as the walk reaches it, as `deep` does: a `deep` at every level of the walk
        was quadratic in a type's nesting, `[[[..[a]..]]]` cubic in all.)"""
        ty = self.shallow(ty)
        if isinstance(ty, T.InferTy):
            if ty.kind == "int":
                self.subst[ty.var] = T.I32
            elif ty.kind == "float":
                self.subst[ty.var] = T.F64
            else:
                return T.ERROR
            return self.subst[ty.var]
        if isinstance(ty, T.EnumTy) and ty.args:
            return _rebuild_enum(ty, [self.finalize(a) for a in ty.args])
        if isinstance(ty, (T.RefTy, T.PtrTy, T.ArrayTy, T.TupleTy, T.RangeTy, T.SliceTy,
                           T.IterTy, T.ClosureTy, T.FnBoundTy)):
            return self._map_children(ty, self.finalize)
        if isinstance(ty, T.StructTy) and is_maybe_uninit(ty):
            return maybe_uninit_ty(self.finalize(ty.fields[0][1]))
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
        if isinstance(ty, T.SliceTy):
            return T.SliceTy(f(ty.elem))
        if isinstance(ty, T.IterTy):
            return T.IterTy(f(ty.item))
        if isinstance(ty, T.ClosureTy):
            return T.ClosureTy(ty.key, tuple(f(t) for t in ty.params), f(ty.ret), ty.where)
        if isinstance(ty, T.FnBoundTy):
            return T.FnBoundTy(ty.trait, tuple(f(t) for t in ty.params), f(ty.ret))
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
        if isinstance(a, T.EnumTy):
            return a.name == b.name and len(a.args) == len(b.args) and bool(a.args) and all(
                self.unify(x, y) for x, y in zip(a.args, b.args))
        if isinstance(a, T.RangeTy):
            return self.unify(a.elem, b.elem)
        if isinstance(a, T.StructTy) and is_maybe_uninit(a) and is_maybe_uninit(b):
            return self.unify(a.fields[0][1], b.fields[0][1])
        if isinstance(a, T.IterTy):
            return self.unify(a.item, b.item)
        if isinstance(a, T.ClosureTy):
            return a.key == b.key
        if isinstance(a, T.FnBoundTy):
            return a.trait == b.trait and len(a.params) == len(b.params) and all(
                self.unify(x, y) for x, y in zip(a.params + (a.ret,), b.params + (b.ret,)))
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
        if var.kind == "int" and not T.is_integer(ty):
            return False
        if var.kind == "float" and not isinstance(ty, T.FloatTy):
            return False
        self.subst[var.var] = ty
        return True

    def coerce(self, actual: T.Ty, expected: T.Ty, span: Span, *, why: Label | None = None,
               convert_help: bool = True) -> T.Ty:
        """Check that a value of type `actual` may be used where `expected` is wanted."""
        a, e = self.shallow(actual), self.shallow(expected)
        if isinstance(a, T.NeverTy):
            return expected
        # `&mut T` coerces to `&T`, and `*mut T` to `*const T`, as in Rust.
        if isinstance(a, T.RefTy) and isinstance(e, T.RefTy) and a.mutable and not e.mutable:
            if self.unify(a.inner, e.inner):
                return expected
        if type(a) is T.PtrTy and type(e) is T.PtrTy and a.mutable and not e.mutable:
            if self.unify(a.inner, e.inner):
                return expected
        if isinstance(a, T.RefTy) and type(e) is T.PtrTy and (a.mutable or not e.mutable) \
                and not isinstance(a.inner, T.SliceTy):
            if self.unify(a.inner, e.inner):  # `&x` where a `*const T` is wanted
                return expected
        if not self.unify(actual, expected):
            self.mismatch(expected, actual, span, why=why,
                          value=span.text() if convert_help else None)
            return T.ERROR
        return expected

    def mismatch(self, expected: T.Ty, actual: T.Ty, span: Span, *, why: Label | None = None,
                 value: str | None = None):
        """E0308; `value` (the expression's text) at a coercion site, for rustc's help on
        converting between integer types."""
        exp, act = self.deep(expected), self.deep(actual)
        helps = conversion_help(exp, act, value) if value is not None else None
        self.sink.error("E0308", "mismatched types", span,
                        f"expected {describe(exp)}, found {describe(act)}",
                        labels=[why] if why else None, help=helps)


def _rebuild_enum(ty: T.EnumTy, args: list[T.Ty]) -> T.EnumTy:
    """`Option<?1>` once `?1` is known: the same enum over the resolved arguments."""
    if T.is_option(ty):
        return T.option_ty(args[0])
    if T.is_result(ty):
        return T.result_ty(args[0], args[1])
    return ty
