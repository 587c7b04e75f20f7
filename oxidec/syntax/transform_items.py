"""Parse tree -> AST for items beyond the kernel basics (the `items` helper's rules): `fn`
items with receivers and `const`, `impl` blocks, tuple and unit structs, structured `use`
trees, struct update expressions. A mixin of `AstBuilder` (transform.py); the helper values
and token helpers are shared with it.

    fn_item: vis? CONST? UNSAFE? "fn" IDENT "(" _fn_params? ")" ("->" type)? block
    self_param: AMP MUT? IDENT | MUT IDENT | IDENT
    impl_item: UNSAFE? "impl" type "{" impl_member* "}"
    tuple_struct_item: vis? "struct" IDENT "(" _tuple_field_defs? ")" ";"
    struct_expr: path_expr "{" _struct_fields? "}"   (with `..base`: struct_base)
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import ast
from .token import Token
from .stmt_attrs import attrs_of, cfg_removes
from ..span import Span

SYNTAX = "OX0001"


@dataclass(frozen=True)
class UseTree:
    """A `use` tree while it is built: its text (for messages) and its flattened leaves,
    each leaf's path relative to this subtree."""

    text: str
    span: Span
    leaves: tuple[tuple[tuple[str, ...], str | None, bool, Span], ...]  # path, alias, glob, span


@dataclass(frozen=True)
class _Base:
    """`..base` in a struct expression."""

    expr: ast.Expr


def _toks(children, *types):
    return [c for c in children if isinstance(c, Token) and (not types or c.type in types)]


def _nodes(children):
    return [c for c in children if not isinstance(c, Token)]


def _self_as_param(sp: ast.SelfParam) -> ast.Param:
    span = sp.span
    self_ty = ast.PathType(path=ast.Path(segments=(ast.PathSegment(name="Self", span=span),),
                                         span=span), span=span)
    ty = ast.RefType(inner=self_ty, mutable=sp.mutable, span=span) if sp.by_ref else self_ty
    pat = ast.IdentPat(name="self", mutable=sp.mutable and not sp.by_ref, span=span)
    return ast.Param(pat=pat, ty=ty, span=span)


class ItemRules:
    """Transformer methods for the item rules; AstBuilder copies them into its own class
    body (Lark's class-level `v_args` wraps only the methods defined there)."""

    def fn_item(self, meta, children):
        # fn_item: vis? CONST? UNSAFE? "fn" IDENT generic_params? "(" _fn_params? ")"
        #          ("->" type)? where_clause? block
        from .transform import _Vis
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        is_pub = isinstance(children[0], _Vis)
        name_tok = _toks(children, "IDENT")[0]
        rest = [c for c in _nodes(children) if not isinstance(c, _Vis)]
        params = tuple(c for c in rest if isinstance(c, ast.Param))
        self_param = next((c for c in rest if isinstance(c, ast.SelfParam)), None)
        if self_param is None and params and isinstance(params[0].pat, ast.IdentPat) \
                and params[0].pat.name == "self":  # `self: Self`, `self: &mut Self`
            p = params[0]
            self_param = ast.SelfParam(by_ref=False, mutable=p.pat.mutable, ty=p.ty, span=p.span)
        elif self_param is not None:  # the receiver is parameter 0, of type `Self`/`&Self`
            params = (_self_as_param(self_param),) + params
        ret = next((c for c in rest if isinstance(c, ast.TypeExpr)), None)
        body = rest[-1]
        params, generics = impl_params_as_generics(params, generics)
        return ast.FnItem(attrs=(), name=self.name(name_tok), name_span=self.tspan(name_tok),
                          is_pub=is_pub, is_unsafe=any(t.type == "UNSAFE" for t in
                                                       _toks(children)),
                          params=params, ret=ret, body=body, self_param=self_param,
                          is_const=any(t.type == "CONST" for t in _toks(children)),
                          generics=generics, span=self.span(meta))

    def _self_param(self, meta, children, by_ref: bool):
        tok = _toks(children, "IDENT")[0]
        if tok.value != "self":
            self.sink.error(SYNTAX, f"expected `self`, found `{tok.value}`", self.tspan(tok),
                            "expected `self`",
                            help=f"a parameter needs a type: `{tok.value}: T`")
        return ast.SelfParam(by_ref=by_ref, mutable=any(t.type == "MUT" for t in
                                                        _toks(children)),
                             span=self.span(meta))

    def ref_self_param(self, meta, children):
        # self_param: AMP MUT? IDENT
        return self._self_param(meta, children, True)

    def mut_self_param(self, meta, children):
        # self_param: MUT IDENT
        return self._self_param(meta, children, False)

    def value_self_param(self, meta, children):
        # self_param: IDENT
        return self._self_param(meta, children, False)

    def impl_item(self, meta, children):
        # impl_item: UNSAFE? "impl" generic_params? type where_clause? "{" impl_member* "}"
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        nodes = _nodes(children)
        self_ty = nodes[0]
        return ast.ImplItem(attrs=(), name=self_ty.span.text(), name_span=self_ty.span,
                            self_ty=self_ty, items=tuple(n for n in nodes[1:] if n is not None),
                            generics=generics,
                            span=self.span(meta))

    def impl_member(self, meta, children):
        # impl_member: attribute* (fn_item | const_item)
        attrs = attrs_of(children, self.sink)  # stmt_attrs.py: `cfg_attr` expanded
        inner = children[-1]
        if any(a.name == "cfg" and cfg_removes(a, self.sink) for a in attrs):
            return None  # `#[cfg(P)]` with P false: no such member (the impl drops it)
        return replace(inner, attrs=attrs) if attrs else inner

    def tuple_struct_item(self, meta, children):
        # struct_item: vis? "struct" IDENT generic_params? "(" _tuple_field_defs? ")"
        #              where_clause? ";"
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        name_tok = _toks(children, "IDENT")[0]
        fields = tuple(replace(c, name=str(i)) for i, c in
                       enumerate(c for c in children if isinstance(c, ast.FieldDef)))
        return ast.StructItem(attrs=(), name=self.name(name_tok),
                              name_span=self.tspan(name_tok), fields=fields, shape="tuple",
                              generics=generics, span=self.span(meta))

    def union_item(self, meta, children):
        # union_item: vis? "union" IDENT generic_params? where_clause? "{" _field_defs? "}"
        from .transform_generics import split_generics
        children, generics = split_generics(children)
        name_tok = _toks(children, "IDENT")[0]
        fields = tuple(c for c in children if isinstance(c, ast.FieldDef))
        return ast.StructItem(attrs=(), name=self.name(name_tok),
                              name_span=self.tspan(name_tok), fields=fields, shape="union",
                              generics=generics, span=self.span(meta))

    def tuple_field_def(self, meta, children):
        # tuple_field_def: attribute* vis? type
        return ast.FieldDef(name="", ty=children[-1], span=self.span(meta))

    def struct_expr(self, meta, children):
        # struct_expr: path_expr "{" _struct_fields? "}"
        nodes = _nodes(children)
        base = nodes.pop().expr if nodes and isinstance(nodes[-1], _Base) else None
        return ast.StructExpr(path=nodes[0].path, fields=tuple(nodes[1:]), base=base,
                              span=self.span(meta))

    def struct_base(self, meta, children):
        # struct_base: DOTDOT expr
        return _Base(_nodes(children)[0])

    # -- use trees ----------------------------------------------------------------

    def use_item(self, meta, children):
        # use_item: vis? "use" use_tree ";"
        tree = children[-1]
        imports = tuple(ast.UseImport(path=path, alias=alias, glob=glob, span=span)
                        for path, alias, glob, span in tree.leaves)
        return ast.UseItem(attrs=(), name="", name_span=tree.span, path_text=tree.text,
                           imports=imports, span=self.span(meta))

    def use_name(self, meta, children):
        # use_tree: IDENT
        span = self.span(meta)
        return UseTree(str(children[0]), span, (((str(children[0]),), None, False, span),))

    def use_rename(self, meta, children):
        # use_tree: IDENT "as" IDENT
        span = self.span(meta)
        return UseTree(f"{children[0]} as {children[1]}", span,
                       (((str(children[0]),), str(children[1]), False, span),))

    def use_prefix(self, meta, children):
        # use_tree: IDENT "::" use_tree
        head, sub = str(children[0]), children[1]
        leaves = []
        for path, alias, glob, span in sub.leaves:
            if path == ("self",):  # `a::{self, b}` imports `a` itself
                leaves.append(((head,), alias, glob, span))
            else:
                leaves.append(((head,) + path, alias, glob, span))
        return UseTree(f"{head}::{sub.text}", self.span(meta), tuple(leaves))

    def use_root(self, meta, children):
        # use_tree: "::" use_tree   (`::name` is an extern crate: `::core::f32`)
        sub = children[0]
        return UseTree(f"::{sub.text}", self.span(meta), sub.leaves)

    def use_glob(self, meta, children):
        # use_tree: "*"
        span = self.span(meta)
        return UseTree("*", span, (((), None, True, span),))

    def use_group(self, meta, children):
        # use_tree: "{" _use_trees? "}"
        leaves = tuple(leaf for c in children for leaf in c.leaves)
        return UseTree("{" + ", ".join(c.text for c in children) + "}", self.span(meta), leaves)


def impl_params_as_generics(params: tuple, generics):
    """`fn total(s: &impl Shape)` is `fn total<impl Shape: Shape>(s: &impl Shape)`: each
    `impl Trait` parameter type (also behind `&`, `&mut`) becomes a generic parameter of
    its own, named as written (as rustc shows it)."""
    extra: list = []

    def lift(te):
        if isinstance(te, ast.ImplTraitType):
            name = " ".join(te.span.text().split())
            name = name if all(p.name != name for p in extra) else f"{name}#{len(extra)}"
            extra.append(ast.GenericParam(name=name, kind="type", bounds=te.bounds,
                                          span=te.span))
            seg = ast.PathSegment(name=name, span=te.span)
            return ast.PathType(path=ast.Path(segments=(seg,), span=te.span), span=te.span)
        if isinstance(te, ast.RefType):
            inner = lift(te.inner)
            return te if inner is te.inner else replace(te, inner=inner)
        return te

    out = tuple(p if p.ty is None else replace(p, ty=lift(p.ty)) for p in params)
    if not extra:
        return params, generics
    if generics is None:
        return out, ast.Generics(params=tuple(extra), span=extra[0].span)
    return out, replace(generics, params=generics.params + tuple(extra))

