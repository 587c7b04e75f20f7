"""AST nodes of traits (split from ast.py, which re-exports them): `trait` items and their
members, `impl Trait for Type`, qualified paths' `<T as Trait>`, and `dyn Trait` (parsed only to be rejected)."""
from __future__ import annotations

from .ast import Expr, Item, Node, Param, SelfParam, TypeExpr, node  # noqa: F401


@node
class QSelf(Node):
    """The `<Type as Trait>` before a qualified path (`<S as Mul>::mul`, `<T as Tr>::Out`)."""

    self_ty: "TypeExpr"
    trait_ty: "TypeExpr"


@node
class DynType(TypeExpr):
    """`dyn Trait`: parsed only to be rejected (static dispatch only)."""

    inner: TypeExpr


@node
class TraitImplItem(Item):
    """`impl Trait for Type { .. }` (name is the written self type's text)."""

    trait_ty: TypeExpr
    self_ty: TypeExpr
    items: tuple[Item, ...]


@node
class TraitFnDecl(Item):
    """A trait's required method: `fn f(&self, x: T) -> U;` (no body)."""

    is_unsafe: bool
    params: tuple[Param, ...]
    ret: TypeExpr | None
    self_param: SelfParam | None = None


@node
class AssocTypeItem(Item):
    """`type Output = Complex;` in an impl; `type Output;` in a trait (bounds ignored)."""

    ty: TypeExpr | None


@node
class TraitConstItem(Item):
    """`const N: u32;` or `const N: u32 = 4;` in a trait."""

    ty: TypeExpr
    value: Expr | None


@node
class TraitItem(Item):
    """`trait Name: Super { required fns, default fns, consts, types }`."""

    supertraits: tuple[TypeExpr, ...]
    items: tuple[Item, ...]
