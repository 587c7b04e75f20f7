"""Rust's evaluation order: operands left to right, each value fixed when it is evaluated.

Lowering turns a read of a variable into an operand that names the variable's place
(`Copy(_3)`), not a copy of its value; the operand is consumed later, when the whole expression
is built. That is only right while nothing in between writes the place. In `v + { v += 10; v }`
the block runs between the read of the left `v` and the addition, so the left operand must be
copied to a temporary first, as rustc's MIR building does. The same holds for call arguments,
method receivers, tuple, array and struct elements, and for the values a loop takes once at its
start: a range's bounds, a `step_by` amount, the array of `for e in arr`.

The test is syntactic and conservative: a later operand "may write" a variable when it
contains an assignment or compound assignment to it (to the variable, a field or an element),
a `&mut` borrow of it, or a method call on it. Variables that later operands do not touch keep
the cheap place operand, so the MIR of ordinary code does not change.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..ast_fields import child_fields
from ..mir import syntax as M
from ..span import Span
from ..typeck import LocalRes


def children(node):
    for name in child_fields(node):
        yield from _nodes_in(getattr(node, name))


def _nodes_in(value):
    if isinstance(value, ast.Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes_in(v)


def _push_children(node, stack: list) -> None:
    """stack.extend(children(node)) without the generators (`written_locals` walks every
    later operand of every expression: the generators were most of lowering's time)."""
    Node = ast.Node
    for name in child_fields(node):
        value = getattr(node, name)
        if isinstance(value, Node):
            stack.append(value)
        elif isinstance(value, (list, tuple)):
            for v in value:
                if isinstance(v, Node):
                    stack.append(v)
                elif isinstance(v, (list, tuple)):
                    stack.extend(_nodes_in(v))


def place_root(e: ast.Expr) -> ast.Expr:
    while True:
        if isinstance(e, ast.FieldExpr):
            e = e.base
        elif isinstance(e, ast.IndexExpr):
            e = e.base
        else:
            return e


class EvalOrder:

    def written_locals(self, nodes) -> set[int]:
        """Locals of the variables in scope that `nodes` may write."""
        out: set[int] = set()
        stack = [n for n in nodes if n is not None]
        while stack:
            n = stack.pop()
            target = None
            if isinstance(n, (ast.AssignExpr, ast.CompoundAssignExpr)):
                target = n.lhs
            elif isinstance(n, ast.RefExpr) and n.mutable:
                target = n.operand
            elif isinstance(n, ast.MethodCallExpr):
                target = n.receiver
            if target is not None:
                root = place_root(target)
                res = self.r.res.get(root) if isinstance(root, ast.PathExpr) else None
                if isinstance(res, LocalRes):
                    local = self.var_local.get(id(res.var))
                    if local is not None:
                        out.add(local)
            _push_children(n, stack)
        return out

    def freeze(self, op: M.Operand, ty: T.Ty, span: Span, later) -> M.Operand:
        """`op`, copied to a temporary when the code in `later` may write what it reads."""
        if not isinstance(op, (M.Copy, M.Move)):
            return op
        reads = {op.place.local} | {p.local for p in op.place.projection
                                    if isinstance(p, M.Index)}
        if reads & self.written_locals(later):
            return self.to_temp(M.Use(op), ty, span)
        return op

    def lower_in_order(self, exprs) -> list[M.Operand]:
        """The operands of `exprs`, evaluated left to right, each fixed when evaluated."""
        exprs = list(exprs)
        ops = []
        for i, x in enumerate(exprs):
            op = self.lower_expr(x)
            if i + 1 < len(exprs):
                op = self.freeze(op, self.ty(x), x.span, exprs[i + 1:])
            ops.append(op)
        return ops
