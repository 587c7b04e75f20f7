"""Parse tree -> AST for enums, the pattern forms beyond bindings/tuples/literals, closures,
`?`, `matches!` and let chains: a mixin of `transform.AstBuilder`, one method per rule of
grammar/oxide.lark (the sections marked "helper `enums`")."""
from __future__ import annotations

from .. import ast
from .token import Token

SYNTAX = "OX0001"


def _tokens(children: list, *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and (not types or c.type in types)]


def _nodes(children: list) -> list:
    return [c for c in children if not isinstance(c, Token)]


def _has(children: list, type_: str) -> bool:
    return any(isinstance(c, Token) and c.type == type_ for c in children)


class EnumRules:
    def enum_item(self, meta, children):
        # enum_item: vis? "enum" IDENT generic_params? where_clause? "{" (variant ("," variant)*
        #            ","?)? "}"
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        name_tok = _tokens(children, "IDENT")[0]
        variants = tuple(c for c in children if isinstance(c, ast.VariantDef))
        return ast.EnumItem(attrs=(), name=self.name(name_tok), name_span=self.tspan(name_tok),
                            variants=variants, generics=generics, span=self.span(meta))

    def variant(self, meta, children):
        # variant: attribute* IDENT variant_fields? ("=" expr)?   (attributes are dropped)
        name_tok = _tokens(children, "IDENT")[0]
        kind, fields = "unit", ()
        discr = None
        for c in _nodes(children):
            if isinstance(c, tuple):
                kind, fields = c
            elif isinstance(c, ast.Expr):
                discr = c
        return ast.VariantDef(name=self.name(name_tok), kind=kind, fields=fields, discr=discr,
                              span=self.span(meta))

    def tuple_variant_fields(self, meta, children):
        # variant_fields: "(" (type ("," type)* ","?)? ")"
        return "tuple", tuple(ast.FieldDef(name=str(i), ty=t, span=t.span)
                              for i, t in enumerate(children))

    def struct_variant_fields(self, meta, children):
        # variant_fields: "{" _field_defs? "}"
        return "struct", tuple(children)


    def rest_pat(self, meta, children):
        # rest_pat: DOTDOT
        return ast.RestPat(span=self.span(meta))

    def struct_pat(self, meta, children):
        # struct_pat: IDENT ("::" IDENT)* "{" (_field_pat ("," _field_pat)* ","?)? "}"
        nodes = _nodes(children)
        fields = tuple(n for n in nodes if isinstance(n, ast.FieldPat))
        rests = [n for n in nodes if isinstance(n, ast.RestPat)]
        if rests and nodes[-1] is not rests[0] or len(rests) > 1:
            self.sink.error(SYNTAX, "expected `}`, found `,`", rests[0].span,
                            "`..` must be at the end and cannot have a trailing comma")
        return ast.StructPat(path=self._path(_tokens(children, "IDENT"), meta), fields=fields,
                             rest=bool(rests), span=self.span(meta))

    def field_pat(self, meta, children):
        # field_pat: IDENT ":" pattern
        name_tok = _tokens(children, "IDENT")[0]
        return ast.FieldPat(name=self.name(name_tok), pat=_nodes(children)[0],
                            span=self.span(meta))

    def shorthand_field_pat(self, meta, children):
        # field_pat: REF? MUT? IDENT
        name_tok = _tokens(children, "IDENT")[0]
        span = self.span(meta)
        pat = ast.IdentPat(name=self.name(name_tok), mutable=_has(children, "MUT"),
                           by_ref=_has(children, "REF"), span=span)
        return ast.FieldPat(name=str(name_tok), pat=pat, span=span)

    def ref_pat(self, meta, children):
        # ref_pat: AMP _pat_no_or
        return ast.RefPat(inner=_nodes(children)[0], span=self.span(meta))

    def ref_ref_pat(self, meta, children):
        # ref_pat: ANDAND _pat_no_or   (`&&x` is two reference patterns)
        span = self.span(meta)
        inner = ast.RefPat(inner=_nodes(children)[0], span=span)
        return ast.RefPat(inner=inner, span=span)

    def slice_pat(self, meta, children):
        # slice_pat: "[" (pattern ("," pattern)* ","?)? "]"
        return ast.SlicePat(elems=tuple(_nodes(children)), span=self.span(meta))


    def let_else(self, meta, children):
        # let_else: LET_ELSE block   (`let PAT = EXPR else { .. };`)
        return _nodes(children)[0]

    def try_expr(self, meta, children):
        # postfix: postfix QUESTION
        return ast.TryExpr(expr=children[0], span=self.span(meta))

    def closure_expr(self, meta, children):
        # assign: MOVE? closure_params assign
        # | MOVE? closure_params "->" type block_expr
        params = next(c for c in children if isinstance(c, tuple))
        ret = next((c for c in children if isinstance(c, ast.TypeExpr)), None)
        return ast.ClosureExpr(params=params, body=children[-1], is_move=_has(children, "MOVE"),
                               ret=ret, span=self.span(meta))

    def impl_type(self, meta, children):
        # impl_type: "impl" trait_bound
        bounds = tuple(c for c in children if isinstance(c, ast.TraitBound))
        if len(bounds) == 1 and bounds[0].fn_args is not None:  # `impl Fn(A) -> R`
            b = bounds[0]
            return ast.FnTraitType(trait=b.path.names[-1], params=b.fn_args, ret=b.fn_ret,
                                   span=self.span(meta))
        return ast.ImplTraitType(bounds=bounds, span=self.span(meta))

    def fn_ptr_type(self, meta, children):
        # fn_ptr_type: UNSAFE? "fn" fn_type_args fn_type_ret?
        params = next(c for c in children if isinstance(c, tuple))
        ret = next((c[0] for c in children if isinstance(c, list)), None)
        return ast.FnPtrType(params=params, ret=ret, span=self.span(meta))

    def fn_type_args(self, meta, children):
        # fn_type_args: "(" (type ("," type)* ","?)? ")"
        return tuple(c for c in children if isinstance(c, ast.TypeExpr))

    def fn_type_ret(self, meta, children):
        # fn_type_ret: "->" type
        return [children[-1]]

    def closure_params(self, meta, children):
        # closure_params: PIPE (closure_param ("," closure_param)* ","?)? PIPE | OROR
        return tuple(c for c in children if isinstance(c, ast.ClosureParam))

    def closure_param(self, meta, children):
        # closure_param: _pat_no_or (":" type)?
        ty = children[1] if len(children) > 1 else None
        return ast.ClosureParam(pat=children[0], ty=ty, span=self.span(meta))

    def matches_expr(self, meta, children):
        # matches_expr: MATCHES BANG "(" expr "," pattern match_guard? ","? ")"
        nodes = _nodes(children)
        guard = nodes[2].expr if len(nodes) > 2 else None
        return ast.MatchesExpr(scrutinee=nodes[0], pat=nodes[1], guard=guard,
                               span=self.span(meta))

