"""Parse tree -> AST for generic parameters, trait bounds and `where` clauses (the rules of
grammar/oxide.lark in the section marked "helper `generics`"). A mixin of
`transform.AstBuilder`, copied into its class body as `ItemRules` is.

    generic_params: LT (generic_param ("," generic_param)* ","?)? GT
    generic_param: IDENT (":" _bounds?)? ("=" type)?  |  CONST IDENT ":" type ("=" generic_arg)?
    trait_bound: QUESTION? type_segment ("::" type_segment)* fn_sugar?
    where_clause: "where" (where_pred ("," where_pred)* ","?)?

The item rules take the `Generics` and `_Where` values out of their children with
`with_generics`, so an item's generics reach the AST in one `ast.Generics`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import ast
from .token import Token
from ..span import Span


@dataclass(frozen=True)
class _Where:
    preds: tuple[ast.WherePredicate, ...]
    span: Span


@dataclass(frozen=True)
class _FnSugar:
    args: tuple[ast.TypeExpr, ...]
    ret: ast.TypeExpr | None


@dataclass(frozen=True)
class _FnRet:
    ty: ast.TypeExpr


def split_generics(children: list) -> tuple[list, ast.Generics | None]:
    """The children without the generics' values, and the item's `Generics` (or None)."""
    params = next((c for c in children if isinstance(c, ast.Generics)), None)
    where = next((c for c in children if isinstance(c, _Where)), None)
    rest = [c for c in children if not isinstance(c, (ast.Generics, _Where))]
    if params is None and where is None:
        return rest, None
    if params is None:
        params = ast.Generics(params=(), span=where.span)
    if where is not None:
        params = replace(params, where=where.preds)
    return rest, params


def _nodes(children):
    return [c for c in children if not isinstance(c, Token)]


class GenericRules:
    """Transformer methods; AstBuilder copies them into its own class body."""

    def generic_params(self, meta, children):
        # generic_params: LT (generic_param ("," generic_param)* ","?)? GT
        return ast.Generics(params=tuple(c for c in _nodes(children) if c is not None),
                            span=self.span(meta))

    def lifetime_param(self, meta, children):
        # generic_param: LABEL (":" LABEL ("+" LABEL)*)?   (dropped: see the grammar)
        return None

    def type_param(self, meta, children):
        # generic_param: IDENT (":" _bounds?)? ("=" type)?
        name_tok = children[0]
        nodes = _nodes(children[1:])
        bounds = tuple(c for c in nodes if isinstance(c, ast.TraitBound))
        default = next((c for c in nodes if isinstance(c, ast.TypeExpr)), None)
        return ast.GenericParam(name=self.name(name_tok), kind="type", bounds=bounds,
                                default=default, span=self.tspan(name_tok))

    def const_param(self, meta, children):
        # generic_param: CONST IDENT ":" type ("=" generic_arg)?
        name_tok = [c for c in children if isinstance(c, Token) and c.type == "IDENT"][0]
        nodes = _nodes(children)
        return ast.GenericParam(name=self.name(name_tok), kind="const", ty=nodes[0],
                                default=nodes[1] if len(nodes) > 1 else None,
                                span=self.tspan(name_tok))

    def trait_bound(self, meta, children):
        # trait_bound: QUESTION? type_segment ("::" type_segment)* fn_sugar?
        maybe = any(isinstance(c, Token) and c.type == "QUESTION" for c in children)
        segs = tuple(c for c in children if isinstance(c, ast.PathSegment))
        sugar = next((c for c in children if isinstance(c, _FnSugar)), None)
        span = self.span(meta)
        path = ast.Path(segments=segs, span=segs[0].span.to(segs[-1].span))
        return ast.TraitBound(path=path, fn_args=sugar.args if sugar else None,
                              fn_ret=sugar.ret if sugar else None, maybe=maybe, span=span)

    def fn_sugar(self, meta, children):
        # fn_sugar: "(" (type ("," type)* ","?)? ")" fn_sugar_ret?
        nodes = _nodes(children)
        if nodes and isinstance(nodes[-1], _FnRet):
            return _FnSugar(tuple(nodes[:-1]), nodes[-1].ty)
        return _FnSugar(tuple(nodes), None)

    def fn_sugar_ret(self, meta, children):
        # fn_sugar_ret: "->" type
        return _FnRet(_nodes(children)[-1])

    def where_clause(self, meta, children):
        # where_clause: "where" (where_pred ("," where_pred)* ","?)?
        return _Where(tuple(_nodes(children)), self.span(meta))

    def where_pred(self, meta, children):
        # where_pred: type ":" _bounds?
        nodes = _nodes(children)
        return ast.WherePredicate(ty=nodes[0], bounds=tuple(nodes[1:]), span=self.span(meta))

    def assoc_type_arg(self, meta, children):
        # generic_arg: IDENT EQ type        (`Output = T` in a bound)
        return ast.AssocTypeArg(name=self.name(children[0]), ty=children[-1],
                                span=self.span(meta))
