"""Parse tree -> AST: one method per grammar rule of grammar/oxide.lark.

Each method takes the node's `meta` (positions, for the node's span) and the rule's
children (already built: AST nodes, plus the named tokens the grammar keeps) and
carries the grammar fragment it handles in a comment. Method names are the rule names,
which match the AST classes (`let_stmt` -> `ast.LetStmt`).

A few rules produce helper values (`_Vis`, `_Generics`, ...) that only their parent
rule consumes; they never reach the AST.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import ast
from ..diagnostics import DiagnosticSink
from ..span import SourceFile, Span
from . import literals
from .prescan import RESERVED, SkippedInfo
from .stmt_attrs import attach_stmt_attrs, attrs_of
from .token import Token
from .transform_enums import EnumRules
from .transform_generics import GenericRules, split_generics
from .transform_items import ItemRules
from .transform_traits import TraitRules

SYNTAX = "OX0001"
ATTR = "OX0003"


@dataclass(frozen=True)
class _Vis:
    span: Span


@dataclass(frozen=True)
class _Generics:
    args: tuple
    span: Span


@dataclass(frozen=True)
class _Turbofish:
    args: tuple


@dataclass(frozen=True)
class _Guard:
    expr: ast.Expr


@dataclass(frozen=True)
class _AttrArgs:
    args: tuple


@dataclass(frozen=True)
class _Empty:
    """An empty statement `;`: folded into the block-like statement before it."""

    span: Span


def _tokens(children: list, *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and (not types or c.type in types)]


def _nodes(children: list) -> list:
    return [c for c in children if not isinstance(c, Token)]


def _has(children: list, type_: str) -> bool:
    return any(isinstance(c, Token) and c.type == type_ for c in children)


class AstBuilder(TraitRules, GenericRules, ItemRules, EnumRules):
    """One method per grammar rule, called with the node's `meta` (positions) and its
    children, bottom-up: by the direct parse at each reduction (direct.py), or over Lark's
    tree after a syntax error (tree_walk.py)."""

    def __init__(self, file: SourceFile, sink: DiagnosticSink,
                 skipped: dict[int, SkippedInfo]):
        self.file = file
        self.sink = sink
        self.skipped = skipped

    # -- helpers --------------------------------------------------------------

    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 0, 0)
        return Span(self.file, meta.start_pos, meta.end_pos)

    def tspan(self, tok: Token) -> Span:
        return Span(self.file, tok.start_pos, tok.end_pos)

    def name(self, tok: Token) -> str:
        """An identifier token's text; a keyword there is an error (the contextual lexer
        reads `fn` as an identifier where no keyword can come)."""
        if tok.value in RESERVED:
            self.sink.error(SYNTAX, f"expected identifier, found keyword `{tok.value}`",
                            self.tspan(tok), "expected identifier, found keyword")
        return str(tok.value)

    def __default__(self, data, children, meta):
        raise AssertionError(f"no transformer method for grammar rule {data!r}")

    # -- items ----------------------------------------------------------------

    def source_unit(self, meta, children):
        # source_unit: item*
        return ast.SourceUnit(items=tuple(children), span=Span(self.file, 0, len(self.file.text)))

    def item(self, meta, children):
        # item: attribute* _item_kind
        attrs = attrs_of(children, self.sink)  # stmt_attrs.py: `cfg_attr` expanded
        inner = children[-1]
        return replace(inner, attrs=attrs) if attrs else inner

    def attribute(self, meta, children):
        # attribute: "#" "[" attr_path attr_input? "]"
        name = children[0]
        args = children[1].args if len(children) > 1 else None
        return ast.Attribute(name=name, args=args, span=self.span(meta))

    def attr_path(self, meta, children):
        # attr_path: IDENT ("::" IDENT)*
        return "::".join(str(t) for t in children)

    def attr_args(self, meta, children):
        # attr_input: "(" _exprs? ")"
        return _AttrArgs(tuple(children))

    def attr_value(self, meta, children):
        # attr_input: "=" expr   (`#[doc = "..."]`: args is the value alone)
        return _AttrArgs(tuple(children))

    def vis(self, meta, children):
        # vis: "pub" ("(" IDENT ")" | "(" "in" IDENT ("::" IDENT)* ")")?
        return _Vis(self.span(meta))

    def param(self, meta, children):
        # param: pattern ":" type
        pat, ty = children
        return ast.Param(pat=pat, ty=ty, span=self.span(meta))

    def mod_item(self, meta, children):
        # mod_item: vis? "mod" IDENT "{" item* "}"
        name_tok = _tokens(children, "IDENT")[0]
        items = tuple(c for c in _nodes(children) if isinstance(c, ast.Item))
        return ast.ModItem(attrs=(), name=self.name(name_tok), name_span=self.tspan(name_tok),
                           items=items, span=self.span(meta))

    def const_item(self, meta, children):
        # const_item: vis? "const" IDENT ":" type "=" expr ";"
        name_tok = _tokens(children, "IDENT")[0]
        ty, value = [c for c in _nodes(children) if not isinstance(c, _Vis)]
        return ast.ConstItem(attrs=(), name=self.name(name_tok), name_span=self.tspan(name_tok),
                             ty=ty, value=value, span=self.span(meta))

    def static_item(self, meta, children):
        # static_item: vis? "static" MUT? IDENT ":" type "=" expr ";"
        name_tok = _tokens(children, "IDENT")[0]
        ty, value = [c for c in _nodes(children) if not isinstance(c, _Vis)]
        return ast.StaticItem(attrs=(), name=self.name(name_tok),
                              name_span=self.tspan(name_tok), mutable=_has(children, "MUT"),
                              ty=ty, value=value, span=self.span(meta))

    def struct_item(self, meta, children):
        # struct_item: vis? "struct" IDENT generic_params? where_clause? ("{" _field_defs? "}" | ";")
        children, generics = split_generics(children)
        name_tok = _tokens(children, "IDENT")[0]
        fields = tuple(c for c in children if isinstance(c, ast.FieldDef))
        span = self.span(meta)
        return ast.StructItem(attrs=(), name=self.name(name_tok),
                              name_span=self.tspan(name_tok), fields=fields, generics=generics,
                              shape="unit" if span.text().endswith(";") else "named", span=span)

    def field_def(self, meta, children):
        # field_def: attribute* vis? IDENT ":" type   (field attributes are dropped)
        name_tok = _tokens(children, "IDENT")[0]
        return ast.FieldDef(name=self.name(name_tok), ty=children[-1], span=self.span(meta))


    def host_item(self, meta, children):
        # host_item: HOST_ITEM   (a host item the pre-scanner blanked, see prescan.py)
        info = self.skipped[children[0].start_pos]
        span = Span(self.file, info.start, info.end)
        name_span = Span(self.file, info.name_start, info.name_end)
        if info.kind == "fn":
            return ast.HostFn(attrs=(), name=info.name, name_span=name_span, span=span)
        return ast.SkippedItem(attrs=(), name=info.name, name_span=name_span, kind=info.kind,
                               span=span)

    # -- types ----------------------------------------------------------------

    def path_type(self, meta, children):
        # path_type: type_segment ("::" type_segment)*
        path = ast.Path(segments=tuple(children), span=self.span(meta))
        return ast.PathType(path=path, span=self.span(meta))

    def type_segment(self, meta, children):
        # type_segment: IDENT generic_args?
        args = children[1].args if len(children) > 1 else ()
        return ast.PathSegment(name=self.name(children[0]), generic_args=args,
                               span=self.span(meta))

    def cast_path_type(self, meta, children):
        # cast_type: IDENT ("::" IDENT)* cast_generic_args?
        args = children[-1].args if isinstance(children[-1], _Generics) else ()
        names = children[:-1] if args else children
        segs = tuple(ast.PathSegment(name=self.name(t), span=self.tspan(t)) for t in names)
        if args:
            last = segs[-1]
            end = children[-1].span
            segs = segs[:-1] + (ast.PathSegment(name=last.name, generic_args=args,
                                                span=last.span.to(end)),)
        return ast.PathType(path=ast.Path(segments=segs, span=self.span(meta)),
                            span=self.span(meta))

    def generic_args(self, meta, children):
        # generic_args: LT generic_arg ("," generic_arg)* ","? GT
        return _Generics(tuple(_nodes(children)), self.span(meta))

    cast_generic_args = generic_args  # CAST_LT generic_arg ("," generic_arg)* ","? GT

    def neg_literal(self, meta, children):
        # generic_arg: MINUS INT
        return ast.UnaryExpr(op="-", operand=self._int(children[1]), span=self.span(meta))

    def ref_type(self, meta, children):
        # ref_type: AMP MUT? type
        return ast.RefType(inner=children[-1], mutable=_has(children, "MUT"),
                           span=self.span(meta))

    def ref_ref_type(self, meta, children):
        # ref_type: ANDAND MUT? type    (`&&T` is `& &T`)
        span = self.span(meta)
        inner = ast.RefType(inner=children[-1], mutable=_has(children, "MUT"),
                            span=Span(self.file, span.start + 1, span.end))
        return ast.RefType(inner=inner, mutable=False, span=span)

    def ptr_type(self, meta, children):
        # ptr_type: STAR (CONST | MUT) type
        return ast.PtrType(inner=children[-1], mutable=_has(children, "MUT"),
                           span=self.span(meta))

    def array_type(self, meta, children):
        # array_type: "[" type ";" expr "]"
        elem, length = children
        return ast.ArrayType(elem=elem, length=length, span=self.span(meta))

    def slice_type(self, meta, children):
        # slice_type: "[" type "]"
        return ast.SliceType(elem=children[0], span=self.span(meta))

    def tuple_type(self, meta, children):
        # tuple_type: "(" ")" | "(" type "," ")" | "(" type ("," type)+ ","? ")"
        return ast.TupleType(elems=tuple(children), span=self.span(meta))

    def never_type(self, meta, children):
        # never_type: BANG
        return ast.NeverType(span=self.span(meta))

    def infer_type(self, meta, children):
        # infer_type: "_"
        return ast.InferType(span=self.span(meta))

    # -- patterns -------------------------------------------------------------

    def pattern(self, meta, children):
        # pattern: "|"? or_pat   (the leading `|` of a match arm)
        return _nodes(children)[0]

    def or_pat(self, meta, children):
        # or_pat: _pat_no_or ("|" _pat_no_or)+
        return ast.OrPat(alts=tuple(_nodes(children)), span=self.span(meta))

    def ident_pat(self, meta, children):
        # ident_pat: REF? MUT? IDENT ("@" _pat_no_or)?
        # A lone capitalised name (`None`, `N`) is taken as a path, as Rust style has it:
        # rustc decides this at name resolution, which this AST does not wait for.
        name_tok = _tokens(children, "IDENT")[0]
        by_ref, mutable = _has(children, "REF"), _has(children, "MUT")
        span = self.span(meta)
        sub = next(iter(_nodes(children)), None)
        if not by_ref and not mutable and sub is None and name_tok.value[0].isupper():
            seg = ast.PathSegment(name=str(name_tok), span=span)
            return ast.PathPat(path=ast.Path(segments=(seg,), span=span), span=span)
        return ast.IdentPat(name=self.name(name_tok), mutable=mutable, by_ref=by_ref, sub=sub,
                            span=span)



    def wild_pat(self, meta, children):
        # wild_pat: "_"
        return ast.WildPat(span=self.span(meta))

    def tuple_pat(self, meta, children):
        # tuple_pat: "(" ")" | "(" pattern "," ")" | "(" pattern ("," pattern)+ ","? ")"
        return ast.TuplePat(elems=tuple(children), span=self.span(meta))

    def lit_pat(self, meta, children):
        # lit_pat: MINUS? literal
        return ast.LitPat(value=children[-1], negative=_has(children, "MINUS"),
                          span=self.span(meta))

    def range_pat(self, meta, children):
        # range_pat: _range_bound (DOTDOTEQ | DOTDOT) _range_bound   (a literal or `i32::MIN`)
        lo, op, hi = children
        return ast.RangePat(lo=lo, hi=hi, inclusive=op.type == "DOTDOTEQ", span=self.span(meta))

    def _path(self, toks: list[Token], meta) -> ast.Path:
        segs = tuple(ast.PathSegment(name=self.name(t), span=self.tspan(t)) for t in toks)
        return ast.Path(segments=segs, span=self.tspan(toks[0]).to(self.tspan(toks[-1])))

    def path_pat(self, meta, children):
        # path_pat: IDENT ("::" IDENT)+
        return ast.PathPat(path=self._path(children, meta), span=self.span(meta))

    def tuple_struct_pat(self, meta, children):
        # tuple_struct_pat: IDENT ("::" IDENT)* "(" (pattern ("," pattern)* ","?)? ")"
        return ast.TupleStructPat(path=self._path(_tokens(children, "IDENT"), meta),
                                  elems=tuple(_nodes(children)), span=self.span(meta))

    # -- statements and blocks ------------------------------------------------

    def block(self, meta, children):
        # block: "{" stmt* expr_nb? "}"
        stmts: list[ast.Stmt] = []
        tail = None
        for c in children:
            if isinstance(c, _Empty):
                last = stmts[-1] if stmts else None
                if isinstance(last, ast.ExprStmt) and not last.semi:
                    stmts[-1] = replace(last, semi=True, span=last.span.to(c.span))
            elif isinstance(c, ast.Stmt):
                stmts.append(c)
            elif c is None:  # removed by `#[cfg(P)]`
                continue
            else:
                tail = c
        # a trailing block-like statement without `;` is the block's value, as in rustc
        if tail is None and stmts and isinstance(stmts[-1], ast.ExprStmt) \
                and not stmts[-1].semi:
            tail = stmts.pop().expr
        return ast.Block(stmts=tuple(stmts), tail=tail, span=self.span(meta))

    def stmt(self, meta, children):
        # stmt: attribute* _stmt_kind
        attrs = attrs_of(children, self.sink)  # stmt_attrs.py: `cfg_attr` expanded
        inner = children[-1]
        return attach_stmt_attrs(inner, attrs, self.sink) if attrs else inner  # stmt_attrs.py

    def empty_stmt(self, meta, children):
        # stmt: SEMICOLON
        return _Empty(self.span(meta))

    def let_stmt(self, meta, children):
        # let_stmt: "let" pattern (":" type)? ("=" expr let_else?)? ";"
        pat = children[0]
        ty = next((c for c in children[1:] if isinstance(c, ast.TypeExpr)), None)
        init = next((c for c in children[1:] if isinstance(c, ast.Expr)), None)
        else_ = next((c for c in children[1:] if isinstance(c, ast.Block)), None)
        return ast.LetStmt(pat=pat, ty=ty, init=init, else_=else_, span=self.span(meta))

    def item_stmt(self, meta, children):
        # item_stmt: fn_item | const_item | static_item | struct_item | use_item | impl_item
        return ast.ItemStmt(item=children[0], span=self.span(meta))

    def expr_stmt(self, meta, children):
        # expr_stmt: expr_nb SEMICOLON | _block_like
        return ast.ExprStmt(expr=children[0], semi=_has(children, "SEMICOLON"),
                            span=self.span(meta))

    # -- operators ------------------------------------------------------------

    def assign_expr(self, meta, children):
        # assign: range EQ assign
        lhs, _, rhs = children
        return ast.AssignExpr(lhs=lhs, rhs=rhs, span=self.span(meta))

    def compound_assign_expr(self, meta, children):
        # assign: range _compound_op assign   (`+=` ... `>>=`)
        lhs, op, rhs = children
        return ast.CompoundAssignExpr(op=op.value[:-1], lhs=lhs, rhs=rhs, op_span=self.tspan(op),
                                      span=self.span(meta))

    def return_expr(self, meta, children):
        # assign: "return" assign?
        return ast.ReturnExpr(value=children[0] if children else None, span=self.span(meta))

    def break_expr(self, meta, children):
        # assign: "break" LABEL? assign?
        label = next((str(t) for t in _tokens(children, "LABEL")), None)
        value = next(iter(_nodes(children)), None)
        return ast.BreakExpr(label=label, value=value, span=self.span(meta))

    def range_expr(self, meta, children):
        # range: lor (DOTDOT | DOTDOTEQ) lor | lor DOTDOT | (DOTDOT | DOTDOTEQ) lor | DOTDOT
        op_index = next(i for i, c in enumerate(children) if isinstance(c, Token))
        lo = children[0] if op_index == 1 else None
        hi = children[op_index + 1] if op_index + 1 < len(children) else None
        return ast.RangeExpr(lo=lo, hi=hi, inclusive=children[op_index].type == "DOTDOTEQ",
                             span=self.span(meta))

    def binary_expr(self, meta, children):
        # lor/land/cmp/bor/bxor/band/shift/sum/product: lhs OP rhs
        lhs, op, rhs = children
        return ast.BinaryExpr(op=str(op.value), lhs=lhs, rhs=rhs, op_span=self.tspan(op),
                              span=self.span(meta))

    def cast_expr(self, meta, children):
        # cast: cast "as" cast_type
        expr, ty = children
        return ast.CastExpr(expr=expr, ty=ty, span=self.span(meta))

    def unary_expr(self, meta, children):
        # unary: (MINUS | BANG | STAR) unary
        op, operand = children
        return ast.UnaryExpr(op=str(op.value), operand=operand, span=self.span(meta))

    def ref_expr(self, meta, children):
        # unary: AMP MUT? unary
        return ast.RefExpr(mutable=_has(children, "MUT"), operand=children[-1],
                           span=self.span(meta))

    def raw_ref_expr(self, meta, children):
        # unary: AMP IDENT (CONST | MUT) unary   (the IDENT must be the weak keyword `raw`)
        word = children[1]
        if word.value != "raw":
            self.sink.error(SYNTAX, f"expected one of `mut`, `raw`, or an expression, found "
                            f"`{word.value}`", self.tspan(word), "expected `raw` here")
        return ast.RefExpr(raw=True, mutable=_has(children, "MUT"), operand=children[-1],
                              span=self.span(meta))

    def ref_ref_expr(self, meta, children):
        # unary: ANDAND MUT? unary   (`&&x` is `& &x`)
        span = self.span(meta)
        inner = ast.RefExpr(mutable=_has(children, "MUT"), operand=children[-1],
                            span=Span(self.file, span.start + 1, span.end))
        return ast.RefExpr(mutable=False, operand=inner, span=span)

    # -- postfix --------------------------------------------------------------

    def method_call_expr(self, meta, children):
        # callee: postfix "." IDENT turbofish? "(" _exprs? ")"
        receiver, name_tok, *rest = children
        generic_args: tuple = ()
        if rest and isinstance(rest[0], _Turbofish):
            generic_args = rest.pop(0).args
        return ast.MethodCallExpr(receiver=receiver, method=self.name(name_tok),
                                  method_span=self.tspan(name_tok), generic_args=generic_args,
                                  args=tuple(rest), span=self.span(meta))

    def turbofish(self, meta, children):
        # turbofish: "::" generic_args
        return _Turbofish(children[0].args)

    def field_expr(self, meta, children):
        # postfix: postfix "." (IDENT | INT)
        base, tok = children
        if tok.type == "INT" and not (tok.value.isdigit() and (tok.value == "0"
                                                               or tok.value[0] != "0")):
            self.sink.error(SYNTAX, f"invalid tuple index `{tok.value}`", self.tspan(tok),
                            "expected a plain decimal index")
        name = self.name(tok) if tok.type == "IDENT" else str(tok.value)
        return ast.FieldExpr(base=base, name=name, name_span=self.tspan(tok), span=self.span(meta))

    def call_expr(self, meta, children):
        # callee: callee "(" _exprs? ")"
        return ast.CallExpr(func=children[0], args=tuple(children[1:]), span=self.span(meta))

    def index_expr(self, meta, children):
        # callee: postfix "[" expr "]"
        base, index = children
        return ast.IndexExpr(base=base, index=index, span=self.span(meta))

    # -- atoms ----------------------------------------------------------------

    def _literal_error(self, err: literals.LiteralError, tok: Token) -> None:
        start = tok.start_pos + err.offset
        end = tok.end_pos if err.length is None else start + err.length
        self.sink.error(SYNTAX, err.message, Span(self.file, start, end), err.label,
                        help=err.help)

    def int_lit(self, meta, children):
        # literal: INT   (`1f32` is an int token with a float suffix: kind "float")
        return self._int(children[0])

    def _int(self, tok: Token) -> ast.LitExpr:
        try:
            kind, value, suffix = literals.decode_int(tok.value)
        except literals.LiteralError as err:
            self._literal_error(err, tok)
            kind, value, suffix = "int", 0, None
        return ast.LitExpr(kind=kind, value=value, suffix=suffix, span=self.tspan(tok))

    def float_lit(self, meta, children):
        # literal: FLOAT
        tok = children[0]
        try:
            value, suffix = literals.decode_float(tok.value)
        except literals.LiteralError as err:
            self._literal_error(err, tok)
            value, suffix = 0.0, None
        return ast.LitExpr(kind="float", value=value, suffix=suffix, span=self.span(meta))

    def str_lit(self, meta, children):
        # literal: STRING
        tok = children[0]
        try:
            value = literals.decode_str(tok.value)
        except literals.LiteralError as err:
            self._literal_error(err, tok)
            value = ""
        return ast.LitExpr(kind="str", value=value, span=self.span(meta))

    def char_lit(self, meta, children):
        # literal: CHAR
        tok = children[0]
        try:
            value = literals.decode_char(tok.value)
        except literals.LiteralError as err:
            self._literal_error(err, tok)
            value = "\0"
        return ast.LitExpr(kind="char", value=value, span=self.span(meta))

    def byte_char_lit(self, meta, children):
        # literal: BYTE_CHAR   `b'x'` is a `u8`
        data = self._bytes(children[0]) or b"\0"
        return ast.LitExpr(kind="int", value=data[0], suffix="u8", span=self.span(meta))

    def byte_str_lit(self, meta, children):
        # literal: BYTE_STRING   `b"ab"` is `&[u8; 2]`: `&[97u8, 98u8]`, a constant
        span = self.span(meta)
        elems = tuple(ast.LitExpr(kind="int", value=b, suffix="u8", span=span)
                      for b in self._bytes(children[0]))
        return ast.RefExpr(mutable=False, operand=ast.ArrayExpr(elems=elems, span=span),
                           span=span)

    def _bytes(self, tok: Token) -> bytes:
        try:
            return literals.decode_bytes(tok.value)
        except literals.LiteralError as err:
            self._literal_error(err, tok)
            return b""

    def bool_lit(self, meta, children):
        # literal: TRUE | FALSE
        return ast.LitExpr(kind="bool", value=children[0].type == "TRUE", span=self.span(meta))

    def path_expr(self, meta, children):
        # path_expr: IDENT ("::" (IDENT | generic_args))*
        segs: list[ast.PathSegment] = []
        for c in children:
            if isinstance(c, _Generics):
                if not segs or segs[-1].generic_args:
                    self.sink.error(SYNTAX, "unexpected generic arguments", c.span,
                                    "generic arguments go after a path segment")
                    continue
                last = segs[-1]
                segs[-1] = replace(last, generic_args=c.args, span=last.span.to(c.span))
            else:
                segs.append(ast.PathSegment(name=self.name(c), span=self.tspan(c)))
        span = self.span(meta)
        return ast.PathExpr(path=ast.Path(segments=tuple(segs), span=span), span=span)

    def struct_field(self, meta, children):
        # struct_field: IDENT (":" expr)?   (shorthand `Foo { x }` is `x: x`)
        name_tok = children[0]
        name = self.name(name_tok)
        if len(children) > 1:
            return (name, children[1])
        span = self.tspan(name_tok)
        seg = ast.PathSegment(name=name, span=span)
        return (name, ast.PathExpr(path=ast.Path(segments=(seg,), span=span), span=span))

    def macro_call_expr(self, meta, children):
        # macro_call_expr: path_expr BANG "(" _exprs? ")" | path_expr BANG "[" _exprs? "]"
        path = children[0].path
        args = tuple(_nodes(children)[1:])
        if path.names[-1] in ("addr_of", "addr_of_mut") and len(args) == 1:
            # `core::ptr::addr_of_mut!(x)` is `&raw mut x`
            return ast.RefExpr(raw=True, mutable=path.names[-1] == "addr_of_mut", operand=args[0],
                                  span=self.span(meta))
        return ast.MacroCallExpr(name="::".join(path.names), args=args, span=self.span(meta))


    def paren_expr(self, meta, children):
        # paren_expr: "(" expr ")"   (no node of its own: the tree keeps the grouping)
        return children[0]

    def tuple_expr(self, meta, children):
        # tuple_expr: "(" ")" | "(" expr "," ")" | "(" expr ("," expr)+ ","? ")"
        return ast.TupleExpr(elems=tuple(children), span=self.span(meta))

    def array_expr(self, meta, children):
        # array_expr: "[" _exprs? "]"
        return ast.ArrayExpr(elems=tuple(children), span=self.span(meta))

    def array_repeat_expr(self, meta, children):
        # array_repeat_expr: "[" expr ";" expr "]"
        value, count = children
        return ast.ArrayRepeatExpr(value=value, count=count, span=self.span(meta))

    def continue_expr(self, meta, children):
        # continue_expr: "continue" LABEL?
        return ast.ContinueExpr(label=str(children[0]) if children else None,
                                span=self.span(meta))

    # -- block-like expressions ----------------------------------------------

    def block_expr(self, meta, children):
        # block_expr: block
        return ast.BlockExpr(block=children[0], span=self.span(meta))

    def unsafe_block_expr(self, meta, children):
        # unsafe_block_expr: UNSAFE block
        return ast.BlockExpr(block=children[-1], unsafe=True, span=self.span(meta))

    def if_expr(self, meta, children):
        # if_expr: "if" _cond block ("else" (block_expr | if_expr))?
        cond, then = children[0], children[1]
        else_ = children[2] if len(children) > 2 else None
        return ast.IfExpr(cond=cond, then=then, else_=else_, span=self.span(meta))

    def let_expr(self, meta, children):
        # let_expr: "let" pattern "=" cmp{atom_ns, atom_ns}
        pat, scrutinee = children
        return ast.LetExpr(pat=pat, scrutinee=scrutinee, span=self.span(meta))

    def while_expr(self, meta, children):
        # while_expr: "while" _cond block
        cond, body = children
        return ast.WhileExpr(cond=cond, body=body, span=self.span(meta))

    def loop_expr(self, meta, children):
        # loop_expr: "loop" block
        return ast.LoopExpr(body=children[0], span=self.span(meta))

    def for_expr(self, meta, children):
        # for_expr: "for" pattern "in" expr_ns block
        pat, iter_, body = children
        return ast.ForExpr(pat=pat, iter=iter_, body=body, span=self.span(meta))

    def labeled_expr(self, meta, children):
        # labeled_expr: LABEL ":" (loop_expr | while_expr | for_expr | block_expr)
        label, inner = children
        return replace(inner, label=str(label), span=self.span(meta))

    def match_expr(self, meta, children):
        # match_expr: "match" expr_ns "{" match_arm* last_match_arm? "}"
        return ast.MatchExpr(scrutinee=children[0], arms=tuple(children[1:]),
                             span=self.span(meta))

    def match_arm(self, meta, children):
        # match_arm: pattern match_guard? "=>" (expr_nb "," | _block_like ","?)
        nodes = _nodes(children)
        guard = nodes[1].expr if isinstance(nodes[1], _Guard) else None
        return ast.MatchArm(pat=nodes[0], guard=guard, body=nodes[-1], span=self.span(meta))

    last_match_arm = match_arm  # last_match_arm: pattern match_guard? "=>" expr_nb

    def match_guard(self, meta, children):
        # match_guard: "if" expr
        return _Guard(children[0])
