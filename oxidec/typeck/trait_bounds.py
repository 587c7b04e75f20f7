"""Trait bounds of generic items, checked at each instance (oxidec monomorphises, so a
bound is checked for the concrete type an instance binds, where rustc checks it at the
call): `fn total<T: Shape>(..)` called with a type that has no `impl Shape` is E0277 "the
trait bound `X: Shape` is not satisfied", pointing at the call and at the bound.

    fn total<T: Shape>(s: &T) -> f32        total(&circle)   (no `impl Shape for Circle`)

core's traits are satisfied as core defines them: `Copy`/`Clone` by scalars and `Copy`
types, the arithmetic operators by the numbers, `PartialEq`/`PartialOrd` by scalars and
tuples of them, `Default` by scalars, arrays and tuples; and by user impls and derives.
Auto and marker traits (`Sized`, `Send`, `'static`, ...) and traits of other crates are
not checked.
"""
from __future__ import annotations

from .. import types as T
from ..diagnostics import Label
from ..resolve.generics import all_params, bounds

_INT_OPS = {"BitAnd", "BitOr", "BitXor", "Shl", "Shr", "Not", "BitAndAssign", "BitOrAssign",
            "BitXorAssign", "ShlAssign", "ShrAssign"}
_NUM_OPS = {"Add", "Sub", "Mul", "Div", "Rem", "AddAssign", "SubAssign", "MulAssign",
            "DivAssign", "RemAssign"}
_CHECKED = _INT_OPS | _NUM_OPS | {"Neg", "Copy", "Clone", "PartialEq", "Eq", "PartialOrd",
                                  "Ord", "Default"}


class TraitBoundsMixin:

    def check_instance_bounds(self, fn, env: dict, span) -> bool:
        """E0277 for each bound of generic `fn` that the instance's types do not meet; False
        if there was one (the instance's body is then not checked: its errors would only
        repeat the bound's)."""
        saved, self.module = self.module, self.items.scope_of(fn)  # bounds name from there
        try:
            return self._check_bounds(fn, env, span)
        finally:
            self.module = saved

    def _check_bounds(self, fn, env: dict, span) -> bool:
        ok = True
        for p in all_params(self.items, fn):
            ty = env.get(p.name)
            if p.kind != "type" or not isinstance(ty, T.Ty) or isinstance(ty, T.ErrorTy):
                continue
            for b in bounds(self.items, fn, p.name):
                if b.maybe or b.fn_args is not None:
                    continue  # `?Sized`; `Fn(..)` bounds are the closures'
                trait = self.bound_trait(b)
                if trait is None or self.satisfies(ty, trait):
                    continue
                owner, ok = fn.name, False
                self.sink.error("E0277", f"the trait bound `{ty}: {trait}` is not satisfied",
                                span, f"the trait `{trait}` is not implemented for `{ty}`",
                                labels=[Label(b.span, f"required by this bound in `{owner}`")])
        return ok

    def bound_trait(self, b) -> str | None:
        """The name of the trait a bound names, when it is one this checker knows: a trait
        of the file or one of core's in _CHECKED."""
        res = self.resolver.walk(self.module, b.path.names, "type")
        if res is not None and res.def_ is not None and res.def_.kind == "trait":
            return res.def_.name
        name = b.path.last.name
        if name in _CHECKED and (res is None or res.extern is not None):
            return name
        return None

    def satisfies(self, ty: T.Ty, trait: str) -> bool:
        ty = self.deep(ty)
        if self.has_trait(ty, trait):
            return True
        if trait in ("Copy", "Clone"):
            return T.is_copy(ty) or (trait == "Clone" and "Clone" in self.derived(ty))
        numeric = isinstance(ty, (T.IntTy, T.FloatTy))
        if trait in _NUM_OPS:
            return numeric
        if trait == "Neg":
            return isinstance(ty, T.FloatTy) or (isinstance(ty, T.IntTy) and ty.signed)
        if trait in _INT_OPS:
            return isinstance(ty, (T.IntTy, T.BoolTy))
        if trait in ("PartialEq", "Eq", "PartialOrd", "Ord"):
            base = "PartialOrd" if trait in ("PartialOrd", "Ord") else "PartialEq"
            if trait in ("Eq", "Ord") and isinstance(ty, T.FloatTy):
                return False
            return self.derived_comparable(ty, base)
        if trait == "Default":
            return T.is_scalar(ty) or ty == T.UNIT or (
                isinstance(ty, T.ArrayTy) and self.satisfies(ty.elem, "Default")) or (
                isinstance(ty, T.TupleTy) and all(self.satisfies(t, "Default") for t in ty.elems))
        return False
