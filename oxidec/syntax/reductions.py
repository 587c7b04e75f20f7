"""What the direct parse (direct.py) does at a reduction by each grammar rule: Lark's
parse-tree shaping (lark/parse_tree_builder.py), without the tree.

Lark builds a rule's tree node from the symbols it reduced in three steps, and the AST builder
then sees the node's children and its positions (`meta`):

- the child filter: anonymous tokens (`"("`, `";"`) are dropped unless the rule keeps all
  tokens, and the children of an inlined `_rule` take its place in the list;
- `?rule` (expand1, no alias): a node with one child left is that child;
- the positions: a node starts where its first symbol with a position starts and ends where
  its last one ends, counting dropped tokens and inlined rules ("containers"), so `(x)` as a
  `?type` covers its parentheses for the node around it.

Kinds of reduction:
  PASS        `?rule: x` with its one symbol kept: the value and its positions stay; only
              the parser's state changes (most reductions: `expr -> ... -> primary`)
  PASS_TOKEN  the same with a terminal: the token is made (`?generic_arg: LABEL`)
  SPLICE      an inlined `_rule`: the list of its children, which the parent takes in
  NODE        the AST builder's method named as Lark names the node (the alias, else the
              template, else the rule), or the one child (expand1)

An inlined rule each of whose alternatives keeps exactly one child (`_atom_common: literal
| path_expr | ...`, `_pat_no_or: ... | "(" pattern ")"`) splices a list of one. Its value is
taken to be that child, its positions those of its node (the child's, or with the dropped
tokens around it: the parentheses): a reduction of one symbol is a PASS (or PASS_TOKEN), of
more a SINGLE, and a rule that has it as its one symbol (`?atom: _atom_common`) passes it
on as any `?rule: x` does. Lark would give a token passed on so (`?rule` hands on a token
without its container) or a node without positions (which `?rule` gives the positions
around it) other positions: a SINGLE with such a child leaves the text to Lark
(direct.py), and a terminal is never one's child.
"""
from __future__ import annotations

PASS, PASS_TOKEN, SINGLE, SPLICE, NODE = "pass", "pass_token", "single", "splice", "node"


class Action:
    """One rule's reduction. `include`: for each child Lark keeps, (index among the reduced
    symbols, the terminal's name for a token else None, whether it is an inlined rule)."""

    __slots__ = ("kind", "size", "goto", "include", "expand1", "name", "method")

    def __init__(self, row: tuple, single: frozenset, builder_cls) -> None:
        origin, expansion, _order, alias, keep_all, expand1, _prio, template, empty = row
        if empty:  # only with maybe_placeholders, which the tables are built without
            raise NotImplementedError(f"rule {origin} has placeholders")
        self.size = len(expansion)
        self.goto = origin
        self.expand1 = bool(expand1 and not alias)
        self.include = _include(row, single)
        self.name = alias or template or origin
        self.method = None
        only = self.include[0] if self.size == 1 and len(self.include) == 1 else None
        if (self.expand1 or origin in single) and only is not None and not only[2]:
            self.kind = PASS_TOKEN if only[1] is not None else PASS
        elif origin in single:
            self.kind = SINGLE
        elif origin.startswith("_"):
            if self.expand1:  # Lark would splice the children of the one child it passed on
                raise NotImplementedError(f"inlined rule {origin} with `?`")
            self.kind = SPLICE
        else:
            self.kind = NODE
            self.method = _method(builder_cls, self.name)


def _include(row: tuple, single: frozenset) -> tuple:
    _origin, expansion, _order, _alias, keep_all = row[:5]
    return tuple((i, name if is_term else None,
                  not is_term and name.startswith("_") and name not in single)
                 for i, (name, is_term, filter_out) in enumerate(expansion)
                 if keep_all or not (is_term and filter_out))


def single_child_rules(rules) -> frozenset:
    """The inlined rules each of whose alternatives keeps exactly one child (module
    docstring): the greatest set for which that holds, a child of such a rule counting as
    one."""
    by_origin: dict[str, list] = {}
    for row in rules:
        if row[0].startswith("_"):
            by_origin.setdefault(row[0], []).append(row)
    single = frozenset(by_origin)
    while True:
        kept = frozenset(origin for origin, rows in by_origin.items()
                         if origin in single and all(_keeps_one(r, single) for r in rows))
        if kept == single:
            return single
        single = kept


def _keeps_one(row: tuple, single: frozenset) -> bool:
    inc = _include(row, single)
    return len(inc) == 1 and not inc[0][2] and (len(row[1]) == 1 or inc[0][1] is None)


def _method(builder_cls, name: str):
    """The builder's method for nodes named `name` (called with the builder, the meta and
    the children), or its `__default__` -- as Lark's transformer looks them up."""
    method = getattr(builder_cls, name, None)
    if method is not None:
        return method

    def default(builder, meta, children):
        return builder.__default__(name, children, meta)
    return default


class Meta:
    """The positions a node's method reads (Lark's `meta`): offsets, or `empty` when none
    of its symbols had a position (a rule that matched nothing)."""

    __slots__ = ("start_pos", "end_pos", "empty")

    def __init__(self, start: int | None, end: int | None) -> None:
        self.start_pos = start
        self.end_pos = end
        self.empty = start is None
