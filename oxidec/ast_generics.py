"""AST nodes of generic parameters, trait bounds and `where` clauses (part of `oxidec.ast`,
which re-exports them: use them as `ast.Generics` and so on)."""
from __future__ import annotations

from .ast import Node, Path, PathType, TypeExpr, node


@node
class TraitBound(Node):
    """One bound: `Copy`, `Add<Output = T>` (an `AssocTypeArg` among the last segment's
    generic arguments), `Fn(f32) -> f32` (`fn_args`/`fn_ret`), `?Sized` (`maybe`)."""

    path: Path
    fn_args: tuple[TypeExpr, ...] | None = None  # `Fn(A, B)`: the parenthesised inputs
    fn_ret: TypeExpr | None = None
    maybe: bool = False


@node
class AssocTypeArg(Node):
    """`Output = T` among a bound's generic arguments."""

    name: str
    ty: TypeExpr


@node
class GenericParam(Node):
    """`T: Bound + Bound` (kind "type") or `const N: usize` (kind "const")."""

    name: str
    kind: str
    bounds: tuple[TraitBound, ...] = ()
    ty: TypeExpr | None = None  # a const parameter's type
    default: "TypeExpr | Expr | None" = None


@node
class WherePredicate(Node):
    ty: TypeExpr
    bounds: tuple[TraitBound, ...]


@node
class Generics(Node):
    """An item's generic parameters and `where` clause (resolved by resolve/generics.py)."""

    params: tuple[GenericParam, ...] = ()
    where: tuple[WherePredicate, ...] = ()

    def bounds_of(self, name: str) -> tuple[TraitBound, ...]:
        """Every bound on parameter `name`: inline ones, then the `where` clause's."""
        out = [b for p in self.params if p.name == name for b in p.bounds]
        for w in self.where:
            if isinstance(w.ty, PathType) and w.ty.path.names == (name,):
                out.extend(w.bounds)
        return tuple(out)


@node
class FnPtrType(TypeExpr):
    """`fn(A, B) -> R`: a function pointer type."""

    params: tuple[TypeExpr, ...]
    ret: TypeExpr | None


@node
class ImplTraitType(TypeExpr):
    """`impl Shape` as a parameter's type: the parser makes it an anonymous generic
    parameter of the fn (syntax/transform_items.py), so later phases never see this node
    there; anywhere else (a return type) it is reported as unsupported."""

    bounds: tuple[TraitBound, ...]


@node
class FnTraitType(TypeExpr):
    """`impl Fn(A, B) -> R` (or FnMut, FnOnce): the type of a closure parameter."""

    trait: str
    params: tuple[TypeExpr, ...]
    ret: TypeExpr | None
