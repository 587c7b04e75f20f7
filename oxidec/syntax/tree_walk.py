"""Lark's parse tree -> AST, for the parse after a syntax error (parser.py): the AST
builder's methods called over the tree bottom-up, as Lark's `Transformer_NonRecursive`
calls them (children first, left to right), each with the node's `meta` and its children
(built values, and the tokens the grammar keeps, as token.py's tokens).

The common parse (direct.py) calls the same methods at each reduction instead."""
from __future__ import annotations

from .lark_runtime import install

install()  # before the first import of Lark (lark_runtime.py)

from lark.lexer import Token as LarkToken
from lark.tree import Tree

from .token import from_lark


def build(builder, tree: Tree):
    """The builder's value for the whole tree (no recursion: trees of deep expressions)."""
    order = []  # the nodes and tokens, parents before children, right to left
    todo = [tree]
    while todo:
        node = todo.pop()
        order.append(node)
        if isinstance(node, Tree):
            todo += node.children
    values: list = []
    for node in reversed(order):
        if isinstance(node, Tree):
            size = len(node.children)
            children = values[-size:] if size else []
            if size:
                del values[-size:]
            method = getattr(builder, node.data, None)
            if method is None:
                values.append(builder.__default__(node.data, children, node.meta))
            else:
                values.append(method(node.meta, children))
        elif isinstance(node, LarkToken):
            values.append(from_lark(node))
        else:
            values.append(node)
    (result,) = values
    return result
