"""The LALR parser, put together from the stored tables (tables.py) and Lark's runtime.

`LalrParser(tables).parse(text, on_error)` behaves as `Lark(grammar, parser="lalr",
lexer="contextual", propagate_positions=True).parse(...)` does -- the same trees, tokens and
errors, and Lark's own parser state for error recovery (errors.py) -- but costs almost
nothing to set up, because everything is made when first needed:

- a state's row of actions is decoded when the parser first enters that state;
- a rule's tree-building callback is made at its first reduction;
- the lexer: Lark's contextual lexer compiles one regular expression per distinct set of
  terminals a state accepts (~300 here, ~50 used by a typical file, each a few hundred
  microseconds). Here one lexer over all terminals (Lark's "basic" lexer) reads each token,
  and only where the state does not accept the token it read does the contextual lexer of
  that state read it again. That gives the contextual lexer's tokens exactly: Lark's lexers
  take the first terminal that matches in one fixed order (priority, then length), so when
  the all-terminal lexer's choice is acceptable, no accepted terminal comes before it. The
  re-reads are rare: `>>` closing two generic argument lists, a keyword used as a name.
"""
from __future__ import annotations

import marshal
import re

from .lark_runtime import install

install()  # before the first import of Lark (lark_runtime.py)

from lark.common import LexerConf
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.lexer import Token, BasicLexer, ContextualLexer, LexerThread, PatternRE, PatternStr, TerminalDef
from lark.parse_tree_builder import ParseTreeBuilder
from lark.parsers.lalr_analysis import Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser
from lark.parsers.lalr_parser_state import ParseConf, ParserState
from lark.tree import Tree

from .tables import START


class _Rule(Rule):
    """Lark's Rule with what the parser loop asks of it at every reduction kept at hand:
    the number of symbols, the goto symbol, whether its tree builder hands back its one
    child unchanged (`pass_through`), and its callback once made."""

    __slots__ = ("size", "goto", "pass_through", "callback")

    def __init__(self, origin, expansion, order, alias, options):
        super().__init__(origin, expansion, order, alias, options)
        self.size = len(expansion)
        self.goto = origin.name
        # `?rule: x` with one symbol, kept and not inlined: Lark's ExpandSingleChild returns
        # the child itself and PropagatePositions then leaves its positions as they were
        # (it only copies a meta's own line/column into its `container_*` fields, which
        # every reader takes with those as the default)
        only = expansion[0] if len(expansion) == 1 else None
        self.pass_through = bool(
            options.expand1 and not alias and only is not None
            and (options.keep_all_tokens or not (only.is_term and only.filter_out))
            and (only.is_term or not only.name.startswith("_")))
        self.callback = None


class _FastState(ParserState):
    """Lark's LALR parser state with a leaner `feed_token`: the same actions, stacks and
    values, but a reduction whose tree builder passes its one child through (`?rule: x`,
    most reductions of an expression: `expr -> or_expr -> ... -> primary`) only changes
    the top state, and a rule's callback is looked up on the rule instead of by hashing
    it. Error recovery (errors.py) sees the stacks exactly as Lark's state keeps them."""

    __slots__ = ()

    def feed_token(self, token: Token, is_end=False):
        state_stack = self.state_stack
        value_stack = self.value_stack
        states = self.parse_conf.states
        end_state = self.parse_conf.end_state
        callbacks = self.parse_conf.callbacks
        ttype = token.type
        while True:
            state = state_stack[-1]
            try:
                action, arg = states[state][ttype]
            except KeyError:
                expected = {s for s in states[state].keys() if s.isupper()}
                raise UnexpectedToken(token, expected, state=self, interactive_parser=None)
            if action is Shift:
                assert not is_end
                state_stack.append(arg)
                value_stack.append(token)  # no terminal callbacks: _Callbacks holds rules
                return
            rule = arg
            if rule.pass_through:
                state_stack[-1] = states[state_stack[-2]][rule.goto][1]
            else:
                size = rule.size
                if size:
                    s = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    s = []
                callback = rule.callback
                if callback is None:
                    callback = rule.callback = callbacks[rule]
                state_stack.append(states[state_stack[-1]][rule.goto][1])
                value_stack.append(callback(s))
            if is_end and state_stack[-1] == end_state:
                return value_stack[-1]


class _FastParser(_Parser):
    def parse(self, lexer, start, value_stack=None, state_stack=None, start_interactive=False):
        parser_state = _FastState(ParseConf(self.parse_table, self.callbacks, start), lexer,
                                  state_stack, value_stack)
        if start_interactive:
            from lark.parsers.lalr_interactive_parser import InteractiveParser
            return InteractiveParser(self, parser_state, parser_state.lexer)
        return self.parse_from_state(parser_state)


class _ParseTable:
    """What Lark's parser reads of a parse table."""

    def __init__(self, states, start: int, end: int):
        self.states = states
        self.start_states = {START: start}
        self.end_states = {START: end}


class _States(dict):
    """state -> {symbol: (Shift, state) | (Reduce, rule)}, each row decoded on first use."""

    def __init__(self, rows: tuple, rule):
        super().__init__()
        self._rows = rows
        self._rule = rule

    def __missing__(self, state: int) -> dict:
        rule = self._rule
        row = {sym: (Shift, a) if a >= 0 else (Reduce, rule(~a))
               for sym, a in marshal.loads(self._rows[state]).items()}
        self[state] = row
        return row


class _Callbacks(dict):
    """rule -> the callback that builds its tree node, made at the rule's first reduction."""

    def __bool__(self) -> bool:  # Lark skips tree building when the callbacks are empty
        return True

    def __missing__(self, rule):
        if not isinstance(rule, Rule):
            raise KeyError(rule)
        builder = ParseTreeBuilder([rule], Tree, propagate_positions=True, ambiguous=False,
                                   maybe_placeholders=False)
        callback = builder.create_callback(None)[rule]
        self[rule] = callback
        return callback


class _StateLexers(dict):
    """state -> Lark's lexer of the terminals that state accepts, made on first use."""

    def __init__(self, conf: LexerConf, states: _States):
        super().__init__()
        self._conf = conf
        self._states = states
        self._by_accepts: dict[frozenset, BasicLexer] = {}

    def __missing__(self, state: int) -> BasicLexer:
        accepts = frozenset(self._states[state])
        lexer = self._by_accepts.get(accepts)
        if lexer is None:
            conf = self._conf
            names = accepts | set(conf.ignore)
            sub = LexerConf([t for t in conf.terminals if t.name in names], re, conf.ignore,
                            skip_validation=True)
            sub.terminals_by_name = conf.terminals_by_name
            lexer = self._by_accepts[accepts] = BasicLexer(sub)
        self[state] = lexer
        return lexer


class _Lexer(ContextualLexer):
    """Lark's contextual lexer, reading with the all-terminal lexer first (module docstring)."""

    def __init__(self, conf: LexerConf, states: _States):  # Lark's builds every state's lexer
        self.root_lexer = BasicLexer(conf)
        self.lexers = _StateLexers(conf, states)
        self._states = states

    def lex(self, lexer_state, parser_state):
        states = self._states
        root = self.root_lexer
        lc = lexer_state.line_ctr
        try:
            while True:
                saved = (lc.char_pos, lc.line, lc.column, lc.line_start_pos,
                         lexer_state.last_token)
                try:
                    token = root.next_token(lexer_state, parser_state)
                except UnexpectedCharacters:
                    token = None
                if token is None or token.type not in states[parser_state.position]:
                    lc.char_pos, lc.line, lc.column, lc.line_start_pos, \
                        lexer_state.last_token = saved
                    token = self.lexers[parser_state.position].next_token(lexer_state,
                                                                          parser_state)
                if token.type == "LT" and "CAST_LT" in states[parser_state.position]:
                    token.type = "CAST_LT"  # `x as Foo<T>`: rustc reads generics there too
                if token.type in _SPLIT and not _shifts(states, parser_state, token.type) \
                        and _shifts(states, parser_state, "GT"):
                    # back to the token's own first character (not to the whitespace before
                    # it, where `saved` is): `Option<Option<u32> >>` closes two lists
                    lc.char_pos, lc.line, lc.column = token.start_pos, token.line, token.column
                    lc.line_start_pos = token.start_pos - token.column + 1
                    lexer_state.last_token = saved[4]
                    token = _split_gt(lexer_state)
                yield token
        except EOFError:
            pass
        except UnexpectedCharacters as e:
            # as Lark's ContextualLexer: a terminal of another context is an unexpected token
            try:
                last_token = lexer_state.last_token
                token = root.next_token(lexer_state, parser_state)
                raise UnexpectedToken(token, e.allowed, state=parser_state,
                                      token_history=[last_token],
                                      terminals_by_name=root.terminals_by_name)
            except UnexpectedCharacters:
                raise e from None


# `>>`, `>=`, `>>=` whose first `>` closes a generic argument list (`W<W<W<u32>>>`): after
# the type `W<u32>` a `>>` may follow in a cast (`x as W<u32> >> 1`), so the state accepts it
# and the contextual lexer keeps it whole; rustc splits such a token when it needs a `>`.
_SPLIT = frozenset({"SHR", "SHREQ", "GE"})


def _shifts(states, parser_state, term: str) -> bool:
    """Whether the parser, after the reductions `term` causes, shifts it."""
    stack = list(parser_state.state_stack)
    while True:
        action = states[stack[-1]].get(term)
        if action is None:
            return False
        kind, arg = action
        if kind is Shift:
            return True
        if arg.expansion:
            del stack[-len(arg.expansion):]
        goto = states[stack[-1]].get(arg.origin.name)
        if goto is None:
            return False
        stack.append(goto[1])


def _split_gt(lexer_state) -> Token:
    """A `>` token for the first character at the lexer's position; the rest is read next."""
    lc = lexer_state.line_ctr
    tok = Token("GT", ">", lc.char_pos, lc.line, lc.column, lc.line, lc.column + 1,
                lc.char_pos + 1)
    lc.feed(">")
    lexer_state.last_token = tok
    return tok


def _terminal(row: tuple) -> TerminalDef:
    name, kind, value, flags, raw, priority, width = row
    if kind == "str":
        pattern = PatternStr(value, flags, raw)
    else:
        pattern = PatternRE(value, flags, raw)
        pattern._width = tuple(width)
    return TerminalDef(name, pattern, priority)


def _rule(row: tuple) -> Rule:
    origin, expansion, order, alias, keep_all, expand1, priority, template, empty = row
    symbols = [Terminal(name, filter_out) if is_term else NonTerminal(name)
               for name, is_term, filter_out in expansion]
    return _Rule(NonTerminal(origin), symbols, order, alias,
                 RuleOptions(keep_all, expand1, priority, template, empty))


class LalrParser:
    """The grammar's parser; `terminals` are Lark's TerminalDefs (errors.py shows them)."""

    def __init__(self, tables: dict):
        self.terminals = [_terminal(t) for t in tables["terminals"]]
        rule_rows = tables["rules"]
        rules: list[Rule | None] = [None] * len(rule_rows)

        def rule(i: int) -> Rule:
            r = rules[i]
            if r is None:
                r = rules[i] = _rule(rule_rows[i])
            return r

        self.states = _States(tables["states"], rule)
        table = _ParseTable(self.states, tables["start"], tables["end"])
        conf = LexerConf(self.terminals, re, tables["ignore"], skip_validation=True)
        self.lexer = _Lexer(conf, self.states)
        self._parser = LALR_Parser.__new__(LALR_Parser)
        self._parser._parse_table = table
        self._parser.parser = _FastParser(table, _Callbacks())

    def parse(self, text: str, on_error=None) -> Tree:
        stream = LexerThread.from_text(self.lexer, text)
        if on_error is None:
            return self._parser.parse(stream, START)
        return self._parser.parse(stream, START, on_error=on_error)
