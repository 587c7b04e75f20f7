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
