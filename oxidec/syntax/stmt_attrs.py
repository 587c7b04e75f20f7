"""Outer attributes on statements, where rustc accepts them:

    #[cfg(P)] let x = ..;            removed when P is false (cfg.py), else as without it
    #[allow(L)] let x = ..;          a lint level for this statement (lower/lints.py);
    #[allow(L)] f(x);                also `expect`, `warn`, `deny`, `forbid`
    #[allow(L)] unsafe { .. };
    #[unroll] while k < n { .. }     on `for`, `while` and `loop`: the loop's (ast.ForExpr.attrs)
    #[allow(L)] a += 1;              E0658: rustc puts the attribute on `a`, an expression

An item statement's attributes are the item's (resolve checks them there).
"""
from __future__ import annotations

from dataclasses import replace

from .. import ast
from ..diagnostics import DiagnosticSink
from .cfg import CfgSyntaxError, cfg_holds

LINT_ATTRS = frozenset({"allow", "expect", "warn", "deny", "forbid"})
LOOP_ATTRS = frozenset({"unroll"})
# rustc parses `#[a] x + 1;` as `(#[a] x) + 1`: an attribute on an operand, which is unstable
_OPERATOR_EXPRS = (ast.BinaryExpr, ast.AssignExpr, ast.CompoundAssignExpr, ast.CastExpr,
                   ast.RangeExpr)
_LOOPS = (ast.ForExpr, ast.WhileExpr, ast.LoopExpr)


def cfg_removes(a: ast.Attribute, sink: DiagnosticSink) -> bool:
    """Whether `#[cfg(P)]` removes what it is on (P false); a malformed P is reported."""
    text = a.span.text()
    inner = text[text.find("(") + 1:text.rfind(")")] if "(" in text else ""
    try:
        return not cfg_holds(inner)
    except CfgSyntaxError as err:
        sink.error("OX0003", "malformed `cfg` attribute input", a.span, str(err),
                   help="a predicate is `name`, `name = \"value\"`, `not(P)`, `all(..)` or "
                        "`any(..)`")
        return False


def attrs_of(children, sink: DiagnosticSink) -> tuple[ast.Attribute, ...]:
    """The attributes among a rule's children, each `#[cfg_attr(P, a, b(..))]` replaced by
    `#[a] #[b(..)]` when P holds and dropped when it does not (as rustc expands it)."""
    out: list[ast.Attribute] = []
    for c in children:
        if isinstance(c, ast.Attribute):
            out += expand_cfg_attr(c, sink) if c.name == "cfg_attr" else [c]
    return tuple(out)


def expand_cfg_attr(a: ast.Attribute, sink: DiagnosticSink) -> list[ast.Attribute]:
    args = a.args or ()
    if len(args) < 1:
        sink.error("OX0003", "malformed `cfg_attr` attribute input", a.span, "",
                   help="write `#[cfg_attr(predicate, attr1, attr2, ..)]`")
        return []
    try:
        if not cfg_holds(args[0].span.text()):
            return []
    except CfgSyntaxError as err:
        sink.error("OX0003", "malformed `cfg_attr` attribute input", args[0].span, str(err),
                   help="a predicate is `name`, `name = \"value\"`, `not(P)`, `all(..)` or "
                        "`any(..)`")
        return []
    out = []
    for x in args[1:]:
        if isinstance(x, ast.PathExpr):  # `#[cfg_attr(P, inline)]`
            out.append(ast.Attribute(name="::".join(x.path.names), args=None, span=x.span))
        elif isinstance(x, ast.CallExpr) and isinstance(x.func, ast.PathExpr):
            out.append(ast.Attribute(name="::".join(x.func.path.names), args=x.args,
                                     span=x.span))
        elif isinstance(x, ast.AssignExpr) and isinstance(x.lhs, ast.PathExpr) \
                and x.lhs.path.names == ("doc",):
            continue  # documentation
        else:
            sink.error("OX0003", "malformed `cfg_attr` attribute input", x.span,
                       "expected an attribute")
    return out


def attach_stmt_attrs(stmt: ast.Stmt, attrs: tuple[ast.Attribute, ...],
                      sink: DiagnosticSink) -> ast.Stmt | None:
    """The statement with its attributes in place, or None if a `cfg` removes it."""
    if isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, _OPERATOR_EXPRS):
        for a in attrs:
            sink.error("E0658", "attributes on expressions are experimental", a.span,
                       "on the left operand, not on the statement",
                       notes=["rustc attaches an attribute here to the expression's first "
                              "operand; that needs the unstable `stmt_expr_attributes`"],
                       help="wrap the statement in a block: `#[..] { a += 1; }`")
        return stmt
    if any(a.name == "cfg" and cfg_removes(a, sink) for a in attrs):
        return None
    attrs = tuple(a for a in attrs if a.name != "cfg")
    if not attrs:
        return stmt
    if isinstance(stmt, ast.ItemStmt):
        return replace(stmt, item=replace(stmt.item, attrs=attrs + stmt.item.attrs))
    lints = tuple(a for a in attrs if a.name in LINT_ATTRS)
    is_loop = isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, _LOOPS)
    on_loop = tuple(a for a in attrs if is_loop and a.name in LOOP_ATTRS)
    what = "a `let` statement" if isinstance(stmt, ast.LetStmt) else "this expression"
    for a in attrs:
        if a not in lints and a not in on_loop:
            sink.error("OX0003", f"attribute `{a.name}` is not supported on {what}", a.span,
                       "not supported here",
                       notes=["a statement takes `cfg` and the lint levels (`allow`, `expect`, "
                              "`warn`, `deny`, `forbid`); a loop also `unroll`"])
    if on_loop:
        stmt = replace(stmt, expr=replace(stmt.expr, attrs=on_loop + stmt.expr.attrs))
    return replace(stmt, attrs=lints) if lints else stmt
