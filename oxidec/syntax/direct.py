"""The LALR parse that builds the AST at each reduction: no parse tree, no Lark.

`DirectParser(tables, AstBuilder).parse(text, builder)` returns what
`AstBuilder.transform(LalrParser(tables).parse(text))` returns for a text without syntax
errors -- the same tokens (lalr.py's lexer: the contextual lexer's choice, `CAST_LT`, `>>`
split), the same reductions in the same order (a bottom-up parse reduces a node after its
children and before anything to its right: the order Lark's transformer visits the tree
in), the same children and positions (reductions.py) -- and raises `SyntaxFailure` at the
first syntax error, where parser.py parses again with Lark, whose error recovery
(errors.py) reports every error.

It is the common case made cheap: Lark's parser builds a tree node per reduction, a `meta`
per node, a token object per token (with lines and columns counted), and its transformer
then walks the tree again; here a token is a regex match until a rule keeps it, a chain of
`?rule` reductions (`expr -> assign -> ... -> primary`, a dozen per operand) is one lookup
once seen, and a node is its AST value as soon as it is reduced.
"""
from __future__ import annotations

import marshal

from .reductions import PASS, PASS_TOKEN, SINGLE, SPLICE, Action, Meta, single_child_rules
from .scanner import Scanner
from .token import Token

# `>>`, `>=`, `>>=` whose first `>` closes generic arguments (lalr.py)
_SPLIT = frozenset({"SHR", "SHREQ", "GE"})


class SyntaxFailure(Exception):
    """The text has a syntax error (where and which is Lark's to say: parser.py)."""


class DirectParser:
    def __init__(self, tables: dict, builder_cls) -> None:
        self._packed = tables["states"]
        self._rows: list[dict | None] = [None] * len(self._packed)
        self._rules = tables["rules"]
        self._actions: list[Action | None] = [None] * len(self._rules)
        self._start = tables["start"]
        self._end = tables["end"]
        self._terminals = tables["terminals"]
        self._ignore = tables["ignore"]
        self._builder_cls = builder_cls
        self._single: frozenset | None = None  # reductions.py
        self._root: Scanner | None = None
        self._scanners: dict[frozenset, Scanner] = {}  # by the set of symbols a state takes
        self._chains: dict[tuple, int] = {}  # (state below, state, terminal) -> state

    # -- tables, decoded on first use ----------------------------------------------------

    def row(self, state: int) -> dict:
        """state -> {symbol: n}: shift to / go to state n >= 0, or reduce by rule ~n."""
        row = self._rows[state]
        if row is None:
            row = self._rows[state] = marshal.loads(self._packed[state])
        return row

    def action(self, rule: int) -> Action:
        act = self._actions[rule]
        if act is None:
            if self._single is None:
                self._single = single_child_rules(self._rules)
            act = self._actions[rule] = Action(self._rules[rule], self._single, self._builder_cls)
        return act

    def root(self) -> Scanner:
        if self._root is None:
            self._root = Scanner(self._terminals, self._ignore)
        return self._root

    def scanner(self, state: int) -> Scanner:
        """The contextual lexer of a state: the terminals it takes (lalr.py)."""
        accepts = frozenset(self.row(state))
        scanner = self._scanners.get(accepts)
        if scanner is None:
            names = accepts | set(self._ignore)
            scanner = self._scanners[accepts] = Scanner(
                [t for t in self._terminals if t[0] in names], self._ignore)
        return scanner

    def chain(self, below: int, state: int, term: str) -> int:
        """The state after every PASS reduction `term` causes in `state` (with `below` under
        it: a PASS reduction pops one state and goes to from the one below)."""
        key = (below, state, term)
        while True:
            n = self.row(state).get(term)
            if n is None or n >= 0:
                break
            act = self.action(~n)
            if act.kind is not PASS:
                break
            state = self.row(below)[act.goto]
        self._chains[key] = state
        return state

    def shifts(self, stack: list, term: str) -> bool:
        """Whether the parser, after the reductions `term` causes, shifts it."""
        stack = list(stack)
        while True:
            n = self.row(stack[-1]).get(term)
            if n is None:
                return False
            if n >= 0:
                return True
            origin, expansion = self._rules[~n][:2]
            if expansion:
                del stack[-len(expansion):]
            goto = self.row(stack[-1]).get(origin)
            if goto is None:
                return False
            stack.append(goto)

    # -- the parse -------------------------------------------------------------------------

    def parse(self, text: str, builder):
        rows = self._rows
        row_of = self.row
        actions = self._actions
        action_of = self.action
        chains = self._chains
        root = self.root()
        match = root.match
        renames = root.renames
        stack = [self._start]
        values: list = []
        starts: list = []
        ends: list = []
        empty_nodes: set[int] = set()  # ids of nodes whose meta is empty (reductions.py)

        def reduce(act: Action) -> None:
            size = act.size
            if size:
                vals = values[-size:]
                ss = starts[-size:]
                es = ends[-size:]
                del values[-size:], starts[-size:], ends[-size:], stack[-size:]
                start = ss[0]
                if start is None:
                    start = next((s for s in ss if s is not None), None)
                end = es[-1]
                if end is None:
                    end = next((e for e in reversed(es) if e is not None), None)
            else:
                vals = ss = es = ()
                start = end = None
            children: list = []
            for i, term, splice in act.include:
                if term is not None:
                    children.append(Token(term, vals[i], ss[i], es[i]))
                elif splice:
                    if children:
                        children += vals[i]
                    else:  # Lark's left-recursion shortcut: the inlined list itself
                        children = vals[i]
                else:
                    children.append(vals[i])
            kind = act.kind
            if kind is SPLICE:
                value = children
            elif kind is SINGLE:
                value = children[0]
                if type(value) is Token or ss[act.include[0][0]] is None:
                    raise SyntaxFailure("positions Lark sets as it passes a child on")
            elif kind is PASS_TOKEN:
                value = children[0]
            elif act.expand1 and len(children) == 1:
                value = children[0]
                if type(value) is Token:
                    start, end = value.start_pos, value.end_pos
                elif start is not None and id(value) in empty_nodes:
                    # Lark would give the passed node the positions around it, after its
                    # method ran: rare enough to leave to Lark
                    raise SyntaxFailure("an empty node passed through `?rule`")
            else:
                value = act.method(builder, Meta(start, end), children)
                if start is None:
                    empty_nodes.add(id(value))
            stack.append(row_of(stack[-1])[act.goto])
            values.append(value)
            starts.append(start)
            ends.append(end)

        pos = 0
        while True:
            state = stack[-1]
            row = rows[state]
            if row is None:
                row = row_of(state)
            m = match(text, pos)
            if m is None:
                if root.at_end(text, pos):
                    break
                raise SyntaxFailure(pos)
            ttype = m.lastgroup
            group = m.lastindex
            value = m.group(group)
            tstart = m.start(group)
            tend = m.end()
            names = renames.get(ttype)
            if names is not None:
                ttype = names.get(value, ttype)
            if ttype not in row:  # the state's own lexer reads it again (lalr.py)
                sub = self.scanner(state)
                m = sub.match(text, pos)
                if m is None:
                    raise SyntaxFailure(pos)
                ttype = m.lastgroup
                group = m.lastindex
                value = m.group(group)
                tstart = m.start(group)
                tend = m.end()
                names = sub.renames.get(ttype)
                if names is not None:
                    ttype = names.get(value, ttype)
            if ttype == "LT" and "CAST_LT" in row:
                ttype = "CAST_LT"  # `x as Foo<T>` (lalr.py)
            elif ttype in _SPLIT and not self.shifts(stack, ttype) and self.shifts(stack, "GT"):
                ttype, value, tend = "GT", ">", tstart + 1
            pos = tend
            while True:
                n = row.get(ttype)
                if n is None:
                    raise SyntaxFailure(tstart)
                if n >= 0:
                    stack.append(n)
                    values.append(value)
                    starts.append(tstart)
                    ends.append(tend)
                    break
                act = actions[~n]
                if act is None:
                    act = action_of(~n)
                if act.kind is PASS:
                    state = chains.get((stack[-2], stack[-1], ttype))
                    if state is None:
                        state = self.chain(stack[-2], stack[-1], ttype)
                    stack[-1] = state
                    row = row_of(state)
                    continue
                reduce(act)
                row = row_of(stack[-1])

        # the end of the input: reduce until the start rule is complete (Lark's `$END`)
        end_state = self._end
        while True:
            n = row_of(stack[-1]).get("$END")
            if n is None or n >= 0:
                raise SyntaxFailure(len(text))
            act = action_of(~n)
            if act.kind is PASS:
                stack[-1] = row_of(stack[-2])[act.goto]
            else:
                reduce(act)
            if stack[-1] == end_state:
                return values[-1]
