"""Parse tree -> AST for traits (the `traits` helper's rules): trait declarations, trait
impls, associated types, qualified paths and `dyn`. A mixin of `AstBuilder` (transform.py),
copied into its class body like ItemRules.

    trait_item: vis? UNSAFE? "trait" IDENT generic_params? (":" _supertraits)? where_clause?
                "{" trait_member* "}"
    trait_impl_item: UNSAFE? "impl" generic_params? type "for" type where_clause? "{" impl_member* "}"
    trait_fn_decl: CONST? UNSAFE? "fn" IDENT generic_params? "(" _fn_params? ")" ("->" type)?
                   where_clause? ";"
    trait_const_item: "const" IDENT ":" type ("=" expr)? ";"
    assoc_type_item: "type" IDENT (":" _bounds)? ("=" type)? ";"
    qualified_path_expr / qualified_type: LT type "as" type GT "::" IDENT ("::" IDENT)*
    dyn_type: "dyn" type
"""
from __future__ import annotations


from .. import ast
from .token import Token
from ..span import Span


def _toks(children, *types):
    return [c for c in children if isinstance(c, Token) and (not types or c.type in types)]


def _nodes(children):
    return [c for c in children if not isinstance(c, Token)]


class TraitRules:
    """Transformer methods for the trait rules (see ItemRules for how they are mixed in)."""

    def trait_item(self, meta, children):
        # trait_item: vis? UNSAFE? "trait" IDENT generic_params? (":" _supertraits)? ..
        from .transform import _Vis
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        name_tok = _toks(children, "IDENT")[0]
        nodes = [c for c in _nodes(children) if not isinstance(c, _Vis)]
        supers = tuple(c for c in nodes if isinstance(c, ast.TypeExpr))
        members = tuple(c for c in nodes if isinstance(c, ast.Item))
        return ast.TraitItem(attrs=(), name=self.name(name_tok), name_span=self.tspan(name_tok),
                             supertraits=supers, items=members, generics=generics,
                             span=self.span(meta))

    def trait_member(self, meta, children):
        # trait_member: attribute* (fn_item | trait_fn_decl | trait_const_item | assoc_type_item)
        return self.impl_member(meta, children)  # the same: attributes onto the member

    def trait_fn_decl(self, meta, children):
        # trait_fn_decl: CONST? UNSAFE? "fn" IDENT "(" _fn_params? ")" ("->" type)? ";"
        from .transform_generics import split_generics
        from .transform_items import _self_as_param
        children, generics = split_generics(children)
        name_tok = _toks(children, "IDENT")[0]
        rest = _nodes(children)
        params = tuple(c for c in rest if isinstance(c, ast.Param))
        self_param = next((c for c in rest if isinstance(c, ast.SelfParam)), None)
        if self_param is None and params and isinstance(params[0].pat, ast.IdentPat) \
                and params[0].pat.name == "self":
            p = params[0]
            self_param = ast.SelfParam(by_ref=False, mutable=p.pat.mutable, ty=p.ty, span=p.span)
        elif self_param is not None:
            params = (_self_as_param(self_param),) + params
        ret = next((c for c in rest if isinstance(c, ast.TypeExpr)), None)
        return ast.TraitFnDecl(attrs=(), name=self.name(name_tok), name_span=self.tspan(name_tok),
                               is_unsafe=any(t.type == "UNSAFE" for t in _toks(children)),
                               params=params, ret=ret, self_param=self_param,
                               generics=generics, span=self.span(meta))

    def trait_const_item(self, meta, children):
        # trait_const_item: "const" IDENT ":" type ("=" expr)? ";"
        name_tok = _toks(children, "IDENT")[0]
        nodes = _nodes(children)
        return ast.TraitConstItem(attrs=(), name=self.name(name_tok),
                                  name_span=self.tspan(name_tok), ty=nodes[0],
                                  value=nodes[1] if len(nodes) > 1 else None,
                                  span=self.span(meta))

    def assoc_type_item(self, meta, children):
        # assoc_type_item: "type" IDENT (":" _bounds)? ("=" type)? ";"
        name_tok = _toks(children, "IDENT")[0]
        text = self.span(meta).text()
        nodes = _nodes(children)
        ty = nodes[-1] if nodes and "=" in text else None
        return ast.AssocTypeItem(attrs=(), name=self.name(name_tok),
                                 name_span=self.tspan(name_tok), ty=ty, span=self.span(meta))

    def trait_impl_item(self, meta, children):
        # trait_impl_item: UNSAFE? "impl" type "for" type "{" impl_member* "}"
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        nodes = _nodes(children)
        trait_ty, self_ty = nodes[0], nodes[1]
        return ast.TraitImplItem(attrs=(), name=self_ty.span.text(), name_span=self_ty.span,
                                 trait_ty=trait_ty, self_ty=self_ty,
                                 items=tuple(n for n in nodes[2:] if n is not None),
                                 generics=generics, span=self.span(meta))

    def _qualified(self, meta, children):
        nodes = _nodes(children)
        self_ty, trait_ty = nodes[0], nodes[1]
        names = [t for t in _toks(children, "IDENT")]
        segs = tuple(ast.PathSegment(name=self.name(t), span=self.tspan(t)) for t in names)
        span = self.span(meta)
        qself = ast.QSelf(self_ty=self_ty, trait_ty=trait_ty,
                          span=Span(span.file, span.start, trait_ty.span.end + 1))
        return qself, ast.Path(segments=segs, span=span)

    def qualified_path_expr(self, meta, children):
        # qualified_path_expr: LT type "as" type GT "::" IDENT ("::" IDENT)*
        qself, path = self._qualified(meta, children)
        return ast.PathExpr(path=path, qself=qself, span=self.span(meta))

    def qualified_type(self, meta, children):
        # qualified_type: LT type "as" type GT "::" IDENT ("::" IDENT)*
        qself, path = self._qualified(meta, children)
        return ast.PathType(path=path, qself=qself, span=self.span(meta))

    def dyn_type(self, meta, children):
        # dyn_type: "dyn" type
        return ast.DynType(inner=_nodes(children)[-1], span=self.span(meta))
