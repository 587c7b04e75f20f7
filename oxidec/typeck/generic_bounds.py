"""Bounds of an instance's generic parameters (E0277): `add::<bool>` when `add<T: Add>`.

Checked once per new instance, at the use that makes it, against what is known for sure:
the file's trait impls and derives (typeck/traits.py), and the core traits every scalar type
implements. A bound this module knows nothing about (a trait of another crate) is accepted.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label

_ARITH = {"Add", "Sub", "Mul", "Div", "Rem", "AddAssign", "SubAssign", "MulAssign",
          "DivAssign", "RemAssign"}
_BITS = {"BitAnd", "BitOr", "BitXor", "BitAndAssign", "BitOrAssign", "BitXorAssign"}
_SHIFTS = {"Shl", "Shr", "ShlAssign", "ShrAssign"}
_COMMON = {"Copy", "Clone", "PartialEq", "PartialOrd", "Default", "Debug", "Sized", "Send",
           "Sync", "Unpin"}
# the core traits each kind of scalar implements (the bounds generic kernel code uses)
_SCALAR_TRAITS = {
    "int": _COMMON | _ARITH | _BITS | _SHIFTS | {"Eq", "Ord", "Hash"},
    "float": _COMMON | _ARITH | {"Neg"},
    "bool": _COMMON | _BITS | {"Not", "Eq", "Ord", "Hash"},
}
_KNOWN_CORE = set().union(*_SCALAR_TRAITS.values()) | {"Neg", "Not"}


def scalar_has(ty: T.Ty, trait: str) -> bool | None:
    """Whether scalar `ty` implements core trait `trait`; None when this table cannot say."""
    if trait not in _KNOWN_CORE:
        return None
    if isinstance(ty, T.IntTy):
        return trait in _SCALAR_TRAITS["int"] or (trait in ("Neg", "Not") and
                                                  (ty.signed or trait == "Not"))
    if isinstance(ty, T.FloatTy):
        return trait in _SCALAR_TRAITS["float"]
    if isinstance(ty, T.BoolTy):
        return trait in _SCALAR_TRAITS["bool"]
    return None


class GenericBoundsMixin:

    def check_instance_bounds(self, item: ast.Item, env: dict, span) -> bool:
        """E0277 for each bound of `item`'s parameters that the argument surely lacks;
        whether all of them hold (as far as is known)."""
        ok = True
        for name, arg in env.items():
            if not isinstance(arg, T.Ty) or isinstance(arg, (T.ErrorTy, T.InferTy)):
                continue
            for b in self.generic_bounds(item, name):
                trait = b.path.last.name
                if b.maybe or self.satisfies(arg, b) is not False:
                    continue
                ok = False
                self.sink.error("E0277", f"the trait bound `{arg}: {trait}` is not satisfied",
                                span, f"the trait `{trait}` is not implemented for `{arg}`",
                                labels=[Label(b.span, f"required by this bound in "
                                              f"`{item.name}`")])
        return ok

    def satisfies(self, ty: T.Ty, bound: ast.TraitBound) -> bool | None:
        """True/False when it is known whether `ty` meets `bound`; None when unknown."""
        trait = bound.path.last.name
        user = self.resolver.walk(self.module, bound.path.names, "type") \
            if hasattr(self, "impls_of") else None
        if user is not None and user.def_ is not None and user.def_.kind == "trait":
            return self.has_trait(ty, user.def_.name)
        if bound.fn_args is not None:
            return None  # `F: Fn(..)`: closures are the closure checker's
        if T.is_scalar(ty):
            known = scalar_has(ty, trait)
            if known is not None and not known and hasattr(self, "impls_of"):
                return bool(self.impls_of(ty, trait))
            return known
        if isinstance(ty, (T.StructTy, T.EnumTy)) and trait in _KNOWN_CORE:
            if trait in ("Sized", "Send", "Sync", "Unpin", "Debug"):
                return True
            if trait == "Copy" and ty.is_copy:
                return True
            return self.has_trait(ty, trait) if hasattr(self, "has_trait") else None
        return None
